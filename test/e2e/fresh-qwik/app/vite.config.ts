// The Qwik City starter's Vite configuration: appauth adds nothing here.
import { defineConfig } from "vite";
import { qwikVite } from "@builder.io/qwik/optimizer";
import { qwikCity } from "@builder.io/qwik-city/vite";

export default defineConfig(() => ({ plugins: [qwikCity(), qwikVite()] }));
