import { useId, useRef, type ReactNode } from "react";
import { cn } from "~/lib/cn";
import { Button, type ButtonSize, type ButtonVariant } from "./button";

export type ConfirmDialogProps = {
  /** Label of the button that opens the dialog. */
  trigger: ReactNode;
  triggerVariant?: ButtonVariant;
  triggerSize?: ButtonSize;
  triggerClassName?: string;
  title: ReactNode;
  description?: ReactNode;
  /** Confirm content, e.g. a Remix <Form> with hidden inputs and a submit Button. */
  children: ReactNode;
  cancelLabel?: ReactNode;
  className?: string;
};

export function ConfirmDialog({
  trigger,
  triggerVariant = "secondary",
  triggerSize = "md",
  triggerClassName,
  title,
  description,
  children,
  cancelLabel = "Cancel",
  className,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const dialogId = `${id}-dialog`;
  const close = () => ref.current?.close();
  // Invoker commands open/close the dialog natively (even before hydration); onClick covers older browsers.
  const invoke = (command: "show-modal" | "close") => ({ command, commandfor: dialogId }) as Record<string, string>;
  const nativeCommands = () => "command" in HTMLButtonElement.prototype;

  return (
    <>
      <Button
        variant={triggerVariant}
        size={triggerSize}
        className={triggerClassName}
        aria-haspopup="dialog"
        onClick={() => nativeCommands() || ref.current?.showModal()}
        {...invoke("show-modal")}
      >
        {trigger}
      </Button>
      <dialog
        ref={ref}
        id={dialogId}
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-desc` : undefined}
        // The dialog has no padding, so a click whose target is the dialog itself landed on the backdrop.
        onClick={(e) => e.target === e.currentTarget && close()}
        className={cn(
          "m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl",
          "backdrop:bg-zinc-950/50 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100",
          className,
        )}
      >
        <div className="p-6">
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {title}
          </h2>
          {description && (
            <p id={`${id}-desc`} className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
              {description}
            </p>
          )}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end" onSubmit={close}>
            <Button variant="secondary" onClick={() => nativeCommands() || close()} {...invoke("close")}>
              {cancelLabel}
            </Button>
            {children}
          </div>
        </div>
      </dialog>
    </>
  );
}
