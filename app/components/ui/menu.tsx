import { Link, type LinkProps } from "@remix-run/react";
import { useEffect, useRef, type ButtonHTMLAttributes, type ReactNode } from "react";
import { cn } from "~/lib/cn";
import { buttonClasses, type ButtonVariant } from "./button";

export type DropdownMenuProps = {
  label: ReactNode;
  children: ReactNode;
  /** Which edge of the trigger the panel lines up with. */
  align?: "start" | "end";
  variant?: ButtonVariant;
  className?: string;
  summaryClassName?: string;
  panelClassName?: string;
};

export function DropdownMenu({ label, children, align = "end", variant = "secondary", className, summaryClassName, panelClassName }: DropdownMenuProps) {
  const ref = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const onPointerDown = (e: PointerEvent) => {
      const el = ref.current;
      if (el?.open && !el.contains(e.target as Node)) el.open = false;
    };
    const onKeyDown = (e: KeyboardEvent) => {
      const el = ref.current;
      if (e.key !== "Escape" || !el?.open) return;
      el.open = false;
      el.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);

  // Flip the panel to the other edge when the trigger sits too close to the viewport edge (e.g. stacked on mobile).
  const keepInViewport = () => {
    const panel = ref.current?.open ? (ref.current.lastElementChild as HTMLElement | null) : null;
    if (!panel) return;
    panel.style.left = panel.style.right = "";
    const rect = panel.getBoundingClientRect();
    if (rect.left < 0) Object.assign(panel.style, { left: "0", right: "auto" });
    else if (rect.right > window.innerWidth) Object.assign(panel.style, { left: "auto", right: "0" });
  };

  return (
    <details ref={ref} onToggle={keepInViewport} className={cn("relative inline-block text-left", className)}>
      <summary className={cn(buttonClasses({ variant, size: "sm" }), "list-none [&::-webkit-details-marker]:hidden", summaryClassName)}>
        {label}
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 opacity-60" fill="currentColor">
          <path d="M4.22 6.22a.75.75 0 0 1 1.06 0L8 8.94l2.72-2.72a.75.75 0 1 1 1.06 1.06l-3.25 3.25a.75.75 0 0 1-1.06 0L4.22 7.28a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </summary>
      <div
        // Client-side navigation keeps the layout mounted, so close explicitly once an item is chosen.
        onClick={(e) => {
          if ((e.target as Element).closest("a, button") && ref.current) ref.current.open = false;
        }}
        className={cn(
          "absolute z-30 mt-1 flex max-w-[calc(100vw-2rem)] min-w-48 flex-col rounded-lg border border-zinc-200 bg-white p-1 shadow-lg",
          "dark:border-zinc-800 dark:bg-zinc-900",
          align === "end" ? "right-0" : "left-0",
          panelClassName,
        )}
      >
        {children}
      </div>
    </details>
  );
}

const itemClass =
  "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-zinc-700 transition-colors " +
  "hover:bg-zinc-100 hover:text-zinc-900 disabled:pointer-events-none disabled:opacity-50 " +
  "dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100";

/** A link when `to` is given, otherwise a button (type="button" unless given, e.g. submit inside a Form). */
export type MenuItemProps = (LinkProps & { to: LinkProps["to"] }) | (ButtonHTMLAttributes<HTMLButtonElement> & { to?: undefined });

export function MenuItem(props: MenuItemProps) {
  if (props.to !== undefined) {
    const { className, ...rest } = props;
    return <Link className={cn(itemClass, className)} {...rest} />;
  }
  const { className, type = "button", to: _to, ...rest } = props;
  return <button type={type} className={cn(itemClass, className)} {...rest} />;
}
