import { z } from "zod";

export const email = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .pipe(z.email({ error: "Enter a valid email address, like name@example.com." }));

// Length and common-password rules; the common-password check runs on the server only.
export const newPassword = z.string({ error: "Choose a password." }).min(8, "Use at least 8 characters.").max(128, "Use at most 128 characters.");

export const personName = z.string({ error: "Enter your name." }).trim().min(1, "Enter your name.").max(100, "Use at most 100 characters.");

export const signupSchema = z.object({ name: personName, email, password: newPassword });

export const loginSchema = z.object({
  email,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(128, "Use at most 128 characters."),
  redirectTo: z.string().optional(),
});

export const forgotSchema = z.object({ email });

export const resetSchema = z
  .object({ token: z.string().min(1, "This reset link is incomplete."), password: newPassword, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: "The two passwords do not match.", path: ["confirm"] });

export const verifyCodeSchema = z.object({
  email,
  code: z
    .string({ error: "Enter the 6-digit code." })
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from the email."),
});

export const resendSchema = z.object({ email });
