// Sphere Sweep Explorer: start the page's Python (Pyodide) with the project's sources, from the page's own files
// only.  A site's page: the shared runtime folder beside it.  A single-file page: the files embedded in it
// (gzip, base64), Pyodide's two modules imported from blob: URLs and its other files served by a fetch that
// never reaches the network.  Python runs the solver as plain Python (SPHERE_SOLVER_JIT=0: no numba here).
const ENV = { SPHERE_SOLVER_JIT: "0", HOME: "/home/pyodide" };
const APP = "/home/pyodide/app";

export async function gunzip(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function embedded(name) {
  const element = document.getElementById("runtime-" + name);
  if (!element) throw new Error(`the page holds no ${name}`);
  return gunzip(element.textContent.trim());
}

function moduleUrl(bytes) {
  return URL.createObjectURL(new Blob([bytes], { type: "text/javascript" }));
}

async function fromFolder(runtime) {
  const base = new URL(runtime.base, document.baseURI).href;
  const { loadPyodide } = await import(base + "pyodide/pyodide.mjs");
  const python = await loadPyodide({ indexURL: base + "pyodide/", env: ENV });
  const sources = await fetch(base + runtime.sources);
  if (!sources.ok) throw new Error(`${runtime.sources}: ${sources.status}`);
  return [python, new Uint8Array(await sources.arrayBuffer())];
}

async function fromPage(runtime) {
  const files = {};
  for (const name of runtime.files) if (name !== "vtk.js") files[name] = embedded(name);
  const indexURL = new URL("./sphere-explorer-runtime/", location.href).href;
  const served = new Map();
  for (const name of ["pyodide.asm.wasm", "python_stdlib.zip"]) served.set(indexURL + name, files[name]);
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {       // only the runtime's own files, from this page
    const url = input instanceof Request ? input.url : String(input);
    if (served.has(url)) {
      const type = url.endsWith(".wasm") ? "application/wasm" : "application/zip";
      return new Response(await served.get(url), { headers: { "Content-Type": type } });
    }
    return realFetch(input, init);
  };
  const { loadPyodide } = await import(moduleUrl(await files["pyodide.mjs"]));
  const asm = await import(moduleUrl(await files["pyodide.asm.mjs"]));
  const python = await loadPyodide({
    indexURL, env: ENV, createPyodideModule: asm.default,
    lockFileContents: runtime.lock,
  });
  return [python, await files["sources.zip"]];
}

// vtk.js: a site's page loads it with a script tag; a single file holds it, run from a blob: URL
export async function loadVtk(runtime) {
  if (runtime.kind === "folder" || window.vtk) return window.vtk;
  const url = URL.createObjectURL(new Blob([await embedded("vtk.js")], { type: "text/javascript" }));
  await new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url; script.onload = resolve; script.onerror = () => reject(new Error("vtk.js did not load"));
    document.head.appendChild(script);
  });
  return window.vtk;
}

export async function loadRuntime(runtime) {
  const [python, sources] = runtime.kind === "folder" ? await fromFolder(runtime) : await fromPage(runtime);
  python.unpackArchive(sources, "zip", { extractDir: APP });
  python.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(APP)})`);
  return python;
}
