/** The docs site's theme: VitePress's default, the diagram viewer, and a few styles of our own. */
import DefaultTheme from "vitepress/theme";
import type { Theme } from "vitepress";
import Diagram from "./Diagram.vue";
import "./custom.css";

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component("Diagram", Diagram);
  },
} satisfies Theme;
