// The build: index.html into dist/ with hashed assets (the font among them); with `--mode
// test`, the tests' build (the Embedded App SDK's mock honoured) into dist/test/.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const fonts = fileURLToPath(new URL("../fonts/", import.meta.url));

export default defineConfig(({ mode }) => ({
  base: "./",
  build: {
    outDir: mode === "test" ? "dist/test" : "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    target: "es2022",
  },
  server: { fs: { allow: [".", fonts] } },
}));
