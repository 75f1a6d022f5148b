import { z } from "zod";

// The WooCommerce connection form (route: app.$orgId.$chatbotId.integrations.woocommerce).
export const connectWooSchema = z.object({
  storeUrl: z.string().trim().min(1, "Enter your shop's address, e.g. https://shop.example.com.").max(300, "Keep the address under 300 characters."),
  consumerKey: z
    .string()
    .trim()
    .regex(/^ck_[A-Za-z0-9]{20,64}$/, "Paste the consumer key WooCommerce generated (it starts with ck_)."),
  consumerSecret: z
    .string()
    .trim()
    .regex(/^cs_[A-Za-z0-9]{20,64}$/, "Paste the consumer secret WooCommerce generated (it starts with cs_)."),
});
