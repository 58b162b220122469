// The build: index.html only (fixture.html is a dev page), into dist/ with hashed assets; with
// `--mode test`, the tests' build (the Embedded App SDK's mock honoured) into dist/test/.
import { createReadStream } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const fonts = fileURLToPath(new URL("../../pictures/fonts/", import.meta.url));
const fixtures = fileURLToPath(new URL("../../../tests/web/data/states/", import.meta.url));

export default defineConfig(({ mode }) => ({
  base: "./",
  build: {
    outDir: mode === "test" ? "dist/test" : "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    target: "es2022",
  },
  server: { fs: { allow: [".", fixtures] } },
  plugins: [
    {
      // The bot's server serves /fonts/; the dev server does the same for fixture.html.
      name: "apophis-dev-fonts",
      apply: "serve",
      configureServer(server) {
        server.middlewares.use("/fonts/DejaVuSansCondensed.ttf", (_req, res) => {
          res.setHeader("Content-Type", "font/ttf");
          createReadStream(fonts + "DejaVuSansCondensed.ttf").pipe(res);
        });
      },
    },
  ],
}));
