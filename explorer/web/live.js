// Sphere Sweep Explorer: the script of a live page.  It starts the project's Python in the page (Pyodide),
// draws each frame Python describes with vtk.js, and turns the pointer into rays for Python's drags.  Python
// decides what is drawn, where and in which colour (explorer.view.picture, explorer.web.live); this script maps
// each kind of shape to a mesh and each word to text (textContent only).  A recorded page is the same script with
// no Python: it plays the frames Python described at export (recorded.mjs stands in for the page's Python).
import { loadRuntime, loadVtk } from "./runtime-loader.mjs";
import { recordedPage } from "./recorded.mjs";

const data = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);
const words = data.words;
let vtk = null;            // vtk.js, once loaded

let resolveReady, rejectReady;
const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
ready.catch(() => {});
let page = null;          // the Python LivePage
let frame = null;         // the last frame Python described
const view = {};          // vtk.js: render window, renderers, camera, actors by item name
const pending = { ray: null, drawing: false };
let dragging = false;
let playTimer = null;

// -- the contract for checks --------------------------------------------------------------------------------
window.sphereExplorer = {
  ready,
  recorded: Boolean(data.recorded),  // a recorded page: frames described at export, no Python (nothing to drag)
  scene: () => JSON.parse(page.scene_text()),
  solution: () => JSON.parse(page.solution_text()),
  screenPosition: (name) => {
    const i = frame.names.indexOf(name);
    if (i < 0) throw new Error(`no body named ${name}`);
    return cssPoint(frame.centers[i]);
  },
  frame: () => frame,  // what the page shows now (live.py's LivePage.frame, parsed)
  state: view,  // its camera (view.camera), as the recorded page's state gives it
  // a world point's place in the view, CSS pixels from its top left (the page draws in its frame's numbers)
  project: (point) => cssPoint(point.map((c, k) => (c - frame.local.origin[k]) / frame.local.unit)),
  camera: () => ({ position: view.camera.getPosition(), focal: view.camera.getFocalPoint(),
    up: view.camera.getViewUp(), angle: view.camera.getViewAngle() }),  // where the view looks from, and how wide
  frameCount: () => view.frames || 0,
  setLayer: (name, on) => act(() => page.set_layer(name, on)),  // a layer switched as the Layers panel switches it
  // the mesh this page builds for a shape (kind and args as a frame's shapes hold them): its points' count and box
  mesh: (kind, args) => {
    const m = kind === "sphere" ? sphereMesh(...args) : BUILDERS[kind](...args);
    const p = m.points, lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let k = 0; k < p.length; k++) { lo[k % 3] = Math.min(lo[k % 3], p[k]); hi[k % 3] = Math.max(hi[k % 3], p[k]); }
    return { points: p.length / 3, lo, hi };
  },
  // milliseconds of the last frames: Python (the move and the frame's description), vtk.js, the text
  timings: () => timings.slice(),
};
const timings = [];
let lastText = 0;

// -- the 3-D view -------------------------------------------------------------------------------------------
function hexColor(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}
const hexBytes = (hex) => hexColor(hex).map((c) => Math.round(255 * c));  // a colour per point, as a mesh holds it

function makeView() {
  const generic = vtk.Rendering.Misc.vtkGenericRenderWindow.newInstance({ background: [1, 1, 1], listenWindowResize: true });
  generic.setContainer($("view"));
  generic.resize();
  const renderer = generic.getRenderer();
  renderer.setNearClippingPlaneTolerance(data.camera.nearClip);  // a long shot's close-up stays in front of it
  const renderWindow = generic.getRenderWindow();
  const overlay = vtk.Rendering.Core.vtkRenderer.newInstance({ layer: 1, interactive: false, preserveColorBuffer: true });
  renderWindow.setNumberOfLayers(2);
  renderWindow.addRenderer(overlay);
  overlay.setActiveCamera(renderer.getActiveCamera());
  Object.assign(view, { generic, renderer, overlay, renderWindow, camera: renderer.getActiveCamera(),
    gl: generic.getApiSpecificRenderWindow(), actors: new Map(), frames: 0 });
  for (const [name, look] of Object.entries(data.looks.items)) view.actors.set(name, makeActor(look));
  view.least = { dots: makeLeast("dots"), lines: makeLeast("lines") };
  view.camera.onModified(scheduleLabels);
  window.addEventListener("resize", () => { generic.resize(); scheduleLabels(); });
  // the view's own size changes too when the header grows or shrinks (the question's answer bar, the score)
  let seen = null;
  new ResizeObserver(([entry]) => {
    const size = `${entry.contentRect.width}x${entry.contentRect.height}`;
    if (seen !== null && size !== seen && !dragging) { generic.resize(); if (frame) draw(); scheduleLabels(); }
    seen = size;
  }).observe($("view"));
}

function makeActor(look) {
  const polydata = vtk.Common.DataModel.vtkPolyData.newInstance();
  const mapper = vtk.Rendering.Core.vtkMapper.newInstance({ scalarVisibility: false });
  mapper.setInputData(polydata);
  const actor = vtk.Rendering.Core.vtkActor.newInstance();
  actor.setMapper(mapper);
  const property = actor.getProperty();
  property.setColor(...hexColor(look.color));
  property.setOpacity(look.opacity);
  property.setLineWidth(look.line_width);
  if (look.style === "wireframe") property.setRepresentationToWireframe();
  if (!look.lit) property.setLighting(false);
  else { property.setAmbient(0.3); property.setDiffuse(0.7); property.setSpecular(0.3); property.setSpecularPower(24); }
  if (look.far_side) property.setFrontfaceCulling(true);
  actor.setVisibility(false);
  (look.on_top ? view.overlay : view.renderer).addActor(actor);
  return { actor, polydata, look, key: null, color: look.color };
}

// the least a body and a path are drawn (explorer.view.picture.least_marks decides which; LEAST_DOT, LEAST_LINE): a dot at each opaque body's
// centre, a line along each path, each in its colour, hidden inside anything drawn wider
function makeLeast(kind) {
  const polydata = vtk.Common.DataModel.vtkPolyData.newInstance();
  const mapper = vtk.Rendering.Core.vtkMapper.newInstance({ scalarVisibility: true });
  mapper.setColorModeToDirectScalars();
  mapper.setScalarModeToUsePointData();
  mapper.setInputData(polydata);
  const actor = vtk.Rendering.Core.vtkActor.newInstance();
  actor.setMapper(mapper);
  const property = actor.getProperty();
  property.setLighting(false);
  if (kind === "dots") property.setPointSize(data.looks.least.dot);
  else property.setLineWidth(data.looks.least.line);
  view.renderer.addActor(actor);
  return { actor, polydata, kind };
}

function drawLeast() {
  const marks = { dots: { points: [], cells: [], colors: [] }, lines: { points: [], cells: [], colors: [] } };
  const add = (into, path, color) => {
    const base = into.points.length / 3, rgb = hexBytes(color);
    into.cells.push(path.length, ...path.map((_, k) => base + k));
    for (const p of path) { into.points.push(...p); into.colors.push(...rgb); }
  };
  for (const [point, color] of frame.least.dots) add(marks.dots, [point], color);  // Python decides which
  for (const [path, color] of frame.least.lines) add(marks.lines, path, color);
  for (const [kind, into] of Object.entries(marks)) {
    const { polydata, actor } = view.least[kind];
    polydata.getPoints().setData(Float32Array.from(into.points), 3);
    (kind === "dots" ? polydata.getVerts() : polydata.getLines()).setData(Uint32Array.from(into.cells));
    polydata.getPointData().setScalars(vtk.Common.Core.vtkDataArray.newInstance({
      numberOfComponents: 3, values: Uint8Array.from(into.colors), name: "Colors" }));
    polydata.modified();
    actor.setVisibility(into.cells.length > 0);
  }
}

function setDefaultCamera(whole = false) {  // whole: Frame all, every body over the whole motion
  const { width, height } = $("view").getBoundingClientRect();
  const pose = JSON.parse(page.default_camera(height > 0 ? width / height : 0, whole));  // Python's rule
  const camera = view.camera;
  camera.setFocalPoint(...pose.focal_point);
  camera.setPosition(...pose.position);
  camera.setViewUp(...pose.up);
  camera.setViewAngle(pose.view_angle);
  view.renderer.resetCameraClippingRange();
}

// Python draws in a frame of its own, which moves in steps with what the picture frames (explorer.view.local_frame):
// when it has moved, the camera stays where it was, in the new frame's numbers
function keepCamera(was, now) {
  if (was.unit === now.unit && was.origin.every((c, k) => c === now.origin[k])) return;
  const shift = was.origin.map((c, k) => (c - now.origin[k]) / now.unit), k = was.unit / now.unit;
  const moved = (p) => p.map((c, j) => c * k + shift[j]);
  const camera = view.camera;
  camera.setPosition(...moved(camera.getPosition()));
  camera.setFocalPoint(...moved(camera.getFocalPoint()));
  view.renderer.resetCameraClippingRange();
}

function draw() {
  const shown = new Set();
  for (const shape of frame.shapes) {
    const item = view.actors.get(shape.name);
    if (!item) continue;
    const visible = shape.visible;  // Python's rule (the question mode's stage included)
    shown.add(shape.name);
    item.actor.setVisibility(visible);
    if (!visible) continue;
    const color = shape.color || item.look.color;
    if (color !== item.color) { item.actor.getProperty().setColor(...hexColor(color)); item.color = color; }
    item.actor.getProperty().setOpacity(shape.opacity ?? item.look.opacity);
    if (shape.kind === "sphere") {            // one unit sphere per tessellation, placed and scaled
      const [center, radius, res] = shape.args;
      const key = "sphere:" + res.join(",");
      if (item.key !== key) { setMesh(item.polydata, unitSphere(res[0], res[1])); item.key = key; }
      item.actor.setPosition(...center);
      item.actor.setScale(radius, radius, radius);
    } else {
      const key = JSON.stringify(shape.args);
      if (item.key !== key) {
        item.actor.setPosition(0, 0, 0);
        item.actor.setScale(1, 1, 1);
        const built = BUILDERS[shape.kind](...shape.args);
        setMesh(item.polydata, built);
        item.actor.getMapper().setScalarVisibility(built.colors !== null);  // a colour per point, or the item's
        item.key = key;
      }
    }
  }
  for (const [name, item] of view.actors) if (!shown.has(name)) item.actor.setVisibility(false);
  drawLeast();
  view.renderer.resetCameraClippingRange();
  view.renderWindow.render();
  view.frames += 1;
  placeLabels();
}

// -- meshes: one builder per kind of shape (explorer.view.picture.KINDS) -------------------------------------
function mesh() { return { points: [], normals: [], polys: [], lines: [], colors: null }; }

function setMesh(polydata, m) {
  polydata.getPoints().setData(Float32Array.from(m.points), 3);
  polydata.getPolys().setData(Uint32Array.from(m.polys));
  polydata.getLines().setData(Uint32Array.from(m.lines));
  const pd = polydata.getPointData();
  pd.setNormals(m.normals.length ? vtk.Common.Core.vtkDataArray.newInstance({
    numberOfComponents: 3, values: Float32Array.from(m.normals), name: "Normals" }) : null);
  pd.setScalars(m.colors ? vtk.Common.Core.vtkDataArray.newInstance({
    numberOfComponents: 3, values: Uint8Array.from(m.colors), name: "Colors" }) : null);
  polydata.modified();
}

// The builders below are explorer/view/geometry.py's, point for point (the same points in the same order, the same
// cells): a test builds every kind both ways and compares them (tests/scenarios/pages_in_a_browser/test_live_meshes.py).
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a, k) => [a[0] * k, a[1] * k, a[2] * k];
const norm = (a) => Math.hypot(a[0], a[1], a[2]);
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const angles = (n, last = false) => Array.from({ length: n + (last ? 1 : 0) }, (_, k) => (2 * Math.PI * k) / n);

// geometry._frame: the unit axis along direction (x if zero) and two unit vectors across it
function frameOf(direction) {
  let [x, y, z] = direction;
  const length = Math.hypot(x, y, z);
  if (length > 0) { x /= length; y /= length; z /= length; } else { x = 1; y = 0; z = 0; }
  let u = Math.abs(z) < 0.9 ? [y, -x, 0] : [0, z, -y];
  u = scale(u, 1 / norm(u));
  return [[x, y, z], u, cross([x, y, z], u)];
}

// geometry._grid_faces: a closed band of rings of nAround points, with optional pole caps
function gridFaces(polys, nAround, nRings, first, top, bottom) {
  for (let j = 0; j < nAround; j++) if (top !== null) polys.push(3, top, first + j, first + ((j + 1) % nAround));
  for (let ring = 0; ring < nRings - 1; ring++) {
    const a = first + ring * nAround, b = a + nAround;
    for (let j = 0; j < nAround; j++) polys.push(3, a + j, b + j, b + ((j + 1) % nAround));
    for (let j = 0; j < nAround; j++) polys.push(3, a + j, b + ((j + 1) % nAround), a + ((j + 1) % nAround));
  }
  const last = first + (nRings - 1) * nAround;
  for (let j = 0; j < nAround; j++) if (bottom !== null) polys.push(3, bottom, last + ((j + 1) % nAround), last + j);
}

function appendMesh(m, part) {  // geometry.merge: part's cells after m's points
  const base = m.points.length / 3;
  m.points.push(...part.points);
  m.normals.push(...part.normals);
  for (let k = 0; k < part.polys.length; k += 4) m.polys.push(3, base + part.polys[k + 1], base + part.polys[k + 2], base + part.polys[k + 3]);
}

const sphereCache = new Map();
function unitSphere(nTheta, nPhi) {  // geometry.unit_sphere
  const key = nTheta + "," + nPhi;
  if (sphereCache.has(key)) return sphereCache.get(key);
  const m = mesh();
  m.points.push(0, 0, 1);
  for (let j = 1; j < nPhi; j++) {
    const phi = (Math.PI * j) / nPhi;
    for (const theta of angles(nTheta)) m.points.push(Math.sin(phi) * Math.cos(theta), Math.sin(phi) * Math.sin(theta), Math.cos(phi));
  }
  m.points.push(0, 0, -1);
  m.normals = m.points.slice();
  gridFaces(m.polys, nTheta, nPhi - 1, 1, 0, m.points.length / 3 - 1);
  sphereCache.set(key, m);
  return m;
}

function sphereMesh(center, radius, res) {  // geometry.sphere
  const unit = unitSphere(res[0], res[1]);
  const m = mesh();
  for (let k = 0; k < unit.points.length; k++) m.points.push(center[k % 3] + radius * unit.points[k]);
  m.normals = unit.normals.slice();
  m.polys = unit.polys.slice();
  return m;
}

function tubesMesh(segments, radius, sides = 8) {  // geometry.tubes: per segment, the ring at its end, then at its start
  const m = mesh();
  for (const [p0, p1] of segments) {
    const axis = sub(p1, p0);
    if (norm(axis) === 0) continue;
    const [, u, w] = frameOf(axis), base = m.points.length / 3;
    const ring = angles(sides).map((t) => add(scale(u, Math.cos(t)), scale(w, Math.sin(t))));
    for (const end of [p1, p0]) for (const r of ring) { m.points.push(...add(end, scale(r, radius))); m.normals.push(...r); }
    const faces = [];
    gridFaces(faces, sides, 2, 0, null, null);
    for (let k = 0; k < faces.length; k += 4) m.polys.push(3, base + faces[k + 1], base + faces[k + 2], base + faces[k + 3]);
  }
  return m;
}

function vertexNormals(m) {  // geometry.vertex_normals: area-weighted
  const n = new Array(m.points.length).fill(0), p = m.points;
  for (let k = 0; k < m.polys.length; k += 4) {
    const [i, j, l] = [m.polys[k + 1], m.polys[k + 2], m.polys[k + 3]];
    const a = p.slice(3 * i, 3 * i + 3), b = p.slice(3 * j, 3 * j + 3), c = p.slice(3 * l, 3 * l + 3);
    const f = cross(sub(b, a), sub(c, a));
    for (const v of [i, j, l]) for (let d = 0; d < 3; d++) n[3 * v + d] += f[d];
  }
  for (let v = 0; v < n.length; v += 3) { const len = Math.hypot(n[v], n[v + 1], n[v + 2]) || 1; n[v] /= len; n[v + 1] /= len; n[v + 2] /= len; }
  return n;
}

const MAX_DASHES = 400;  // geometry.MAX_DASHES
function dashes(start, end, dash, gap) {  // geometry.dashes
  const length = norm(sub(end, start));
  let period = dash + gap;
  if (length === 0 || period <= 0) return [];
  let n = Math.ceil(length / period);
  if (n > MAX_DASHES) { period = length / MAX_DASHES; dash = 0.6 * period; n = MAX_DASHES; }
  const dir = scale(sub(end, start), 1 / length), out = [];
  for (let k = 0; k < n; k++) {
    const s0 = k * period, s1 = Math.min(s0 + dash, length);
    out.push([add(start, scale(dir, s0)), add(start, scale(dir, s1))]);
  }
  return out;
}

function circleLines(lines, count, n, base = 0) {
  for (let c = 0; c < count; c++) for (let j = 0; j < n; j++) lines.push(2, base + c * n + j, base + c * n + ((j + 1) % n));
}

const BUILDERS = {
  spheres(centers, radii, res) {
    const m = mesh();
    centers.forEach((c, k) => appendMesh(m, sphereMesh(c, radii[k], res)));
    return m;
  },
  capsule(p0, p1, radius, sides = 24, capRings = 8) {
    const [axis, u, w] = frameOf(sub(p1, p0));
    const circle = angles(sides).map((t) => add(scale(u, Math.cos(t)), scale(w, Math.sin(t))));
    const cap = Array.from({ length: capRings }, (_, k) => ((Math.PI / 2) * (k + 1)) / capRings);
    const directions = [], centres = [];
    for (const a of cap) { directions.push(circle.map((c) => add(scale(axis, Math.cos(a)), scale(c, Math.sin(a))))); centres.push(p1); }
    for (const a of [...cap].reverse()) { directions.push(circle.map((c) => add(scale(axis, -Math.cos(a)), scale(c, Math.sin(a))))); centres.push(p0); }
    const m = mesh();
    m.points.push(...add(p1, scale(axis, radius))); m.normals.push(...axis);
    directions.forEach((ring, k) => { for (const d of ring) { m.points.push(...add(centres[k], scale(d, radius))); m.normals.push(...d); } });
    m.points.push(...sub(p0, scale(axis, radius))); m.normals.push(...scale(axis, -1));
    gridFaces(m.polys, sides, 2 * capRings, 1, 0, sides * 2 * capRings + 1);
    return m;
  },
  arrow(start, end, shaft, headRadius, headLength, sides = 16) {
    const [axis, u, w] = frameOf(sub(end, start));
    const head = Math.min(headLength, 0.6 * norm(sub(end, start))), neck = sub(end, scale(axis, head));
    const circle = angles(sides).map((t) => add(scale(u, Math.cos(t)), scale(w, Math.sin(t))));
    const m = mesh();
    m.points.push(...end);
    for (const [c, r] of [[neck, headRadius], [neck, shaft], [start, shaft]]) for (const d of circle) m.points.push(...add(c, scale(d, r)));
    m.points.push(...start);
    gridFaces(m.polys, sides, 3, 1, 0, m.points.length / 3 - 1);
    m.normals = vertexNormals(m);
    return m;
  },
  ring(center, axis, radius, thickness, n = 32) {
    const [, u, w] = frameOf(axis);
    const circle = angles(n, true).map((t) => add(center, scale(add(scale(u, Math.cos(t)), scale(w, Math.sin(t))), radius)));
    return tubesMesh(circle.slice(0, -1).map((p, k) => [p, circle[k + 1]]), thickness, 6);
  },
  circles(center, radius, n = 96) {
    const m = mesh(), t = angles(n);
    const rings = [(a) => [Math.cos(a), Math.sin(a), 0], (a) => [Math.cos(a), 0, Math.sin(a)], (a) => [0, Math.cos(a), Math.sin(a)]];
    for (const ring of rings) for (const a of t) m.points.push(...add(scale(ring(a), radius), center));
    circleLines(m.lines, 3, n);
    return m;
  },
  tube(path, radius, sides = 8) {
    const kept = path.filter((p, k) => k === 0 || p.some((c, d) => c !== path[k - 1][d]));  // no repeated point
    if (kept.length < 2) return mesh();
    return tubesMesh(kept.slice(0, -1).map((p, k) => [p, kept[k + 1]]), radius, sides);
  },
  coloured_tubes(paths, colors, radius, sides = 8) {  // each path in its own colour, as the window draws them
    const segments = [], segmentColors = [];
    paths.forEach((p, k) => {
      for (let j = 0; j + 1 < p.length; j++) {
        if (p[j].every((c, d) => c === p[j + 1][d])) continue;
        segments.push([p[j], p[j + 1]]); segmentColors.push(hexBytes(colors[k]));
      }
    });
    const m = tubesMesh(segments, radius, sides);
    if (!m.points.length) return m;
    m.colors = [];
    for (const rgb of segmentColors) for (let k = 0; k < 2 * sides; k++) m.colors.push(...rgb);
    return m;
  },
  dashed_tube(start, end, size) { return tubesMesh(dashes(start, end, 0.3 * size, 0.2 * size), 0.02 * size, 6); },
  flat_circles(centers, radius, n = 32) {
    const m = mesh(), t = angles(n);
    for (const c of centers) for (const a of t) m.points.push(c[0] + radius * Math.cos(a), c[1] + radius * Math.sin(a), c[2]);
    circleLines(m.lines, centers.length, n);
    return m;
  },
  segments(points) {
    const m = mesh();
    points.forEach((p, k) => { m.points.push(...p); if (k % 2) m.lines.push(2, k - 1, k); });
    return m;
  },
};

// -- the page's text: verdict, note, colour key, values, trace, events, the plot, labels --------------------
function fill(list, rows, make) { list.replaceChildren(...rows.map(make)); }
function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// words in a drawing's colour (a label, the colour key, f(t)'s marks, a momentum's name) on the page's white: that
// colour as Python makes it readable (explorer.view.palette.readable); what is drawn keeps its own
const readable = (color) => data.looks.readable[color] || color;

function showText() {
  const spoken = frame.keyWords !== null ? frame.keyWords : frame.spoken;  // a key's words first, once
  if (spoken !== null && spoken !== $("spoken").textContent) $("spoken").textContent = spoken;
  if (frame.keyWords !== null) $("status").textContent = frame.keyWords;
  fill($("describe-all"), frame.spokenAll, (line) => el("li", line));
  showForm();
  $("verdict").textContent = frame.verdict;
  $("verdict").style.color = frame.verdictColor;
  $("note").textContent = frame.note || "";
  $("note").hidden = !frame.note;
  fill($("legend"), frame.legend, ([color, text]) => {
    const li = el("li", text + " "); li.style.color = readable(color);
    const swatch = el("span", null, { class: "swatch" }); swatch.style.background = color; li.appendChild(swatch);
    return li;
  });
  fill($("values"), frame.values, ([name, value]) => { const tr = el("tr"); tr.append(el("td", name, { class: "name" }), el("td", value)); return tr; });
  fill($("trace"), frame.trace, ([question, quantity, value, answer]) => {
    const li = el("li", question + " "); li.append(el("i", quantity), ` = ${value}`, el("br"), `→ ${answer}`); return li;
  });
  $("pairs-box").hidden = !frame.pairs.length;
  fill($("pairs"), frame.pairs, (text) => el("li", text));
  $("events-box").hidden = !frame.events.length;
  // each event by mouse (its row) or keyboard (the button in its first cell: Tab, then Enter or Space); the focus
  // stays on its event when the rows are made again
  const focused = document.activeElement ? document.activeElement.dataset.event : undefined;
  fill($("events"), frame.events, (row, k) => {
    const tr = el("tr"); if (k === frame.inspected) tr.className = "active";
    row.forEach((cell, j) => tr.append(j ? el("td", cell) : el("td", null)));
    tr.firstChild.append(el("button", row[0], { type: "button", class: "event", "data-event": String(k),
      "aria-pressed": String(k === frame.inspected) }));
    tr.addEventListener("click", () => act(() => page.inspect(k === frame.inspected ? null : k)));
    return tr;
  });
  if (focused !== undefined) { const again = $("events").querySelector(`[data-event="${focused}"]`); if (again) again.focus(); }
  const asking = frame.asking;
  $("ask-box").hidden = !asking;
  $("guess-hit").setAttribute("aria-pressed", String(frame.guess.hit === true));
  $("guess-miss").setAttribute("aria-pressed", String(frame.guess.hit === false));
  $("score").hidden = !frame.score;
  $("score").textContent = frame.score ? frame.score.words : "";
  $("ask").hidden = asking;  // while asking, Reveal is the one way to the answer
  $("ask").textContent = frame.score ? words.askAgain : words.askFirst;  // a score: the answer is shown
  for (const id of ["play", "time", "rest-frame"]) $(id).disabled = asking;
  if (!asking && !frame.score) clearGuess();
  $("rest-frame").checked = frame.restFrame;
  $("com-frame").checked = frame.comFrame;
  $("momentum-layer").checked = frame.layers.momentum === true;
  $("bodies-frame").textContent = frame.table.frame;  // which frame the diagram's and the table's numbers are in
  $("bodies").replaceChildren(...frame.table.blocks.map(([name, lines]) => {  // a block per body: name, then a line a quantity
    const block = el("tbody"), head = el("tr");
    head.append(el("th", name, { colspan: "2", scope: "rowgroup" }));
    block.append(head, ...lines.map(([heading, value]) => { const tr = el("tr"); tr.append(el("td", heading), el("td", value)); return tr; }));
    return block;
  }));
  $("exact").checked = frame.exact;
  $("rest-frame-name").textContent = frame.other;
  $("undo").disabled = !frame.canUndo;
  $("redo").disabled = !frame.canRedo;
  $("play").textContent = frame.time.playing ? words.pause : words.play;
  const span = frame.time.hi - frame.time.lo;
  if (document.activeElement !== $("time")) $("time").value = span > 0 ? Math.round((1000 * (frame.time.t - frame.time.lo)) / span) : 0;
  $("time-value").textContent = "t = " + frame.time.label;
  fill($("time-marks"), frame.time.marks, (f) => { const s = el("span"); s.style.left = `${100 * f}%`; return s; });
  if (frame.refusal) toast(frame.refusal);
  drawPlot();
  drawMomenta();
}

// the free bodies' momenta tip to tail, one scale and one origin for every diagram (as the window's panel)
// -- the Scene panel: the form Python describes (frame.form); each change is the session's own edit -------------
let formShape = null;
function showForm() {
  const form = frame.form;
  const shape = JSON.stringify([form.mode, form.canAdd, form.bodies.map((b) => [b.name, b.fixed, b.removable])]);
  if (shape !== formShape) { buildForm(form); formShape = shape; }
  for (const input of $("scene-form").querySelectorAll("input[data-field]")) {
    if (document.activeElement !== input) input.value = shownValue(input);
  }
}
function shownValue(input) {  // the value Python shows for the field of this input, now
  const form = frame.form, key = input.dataset.field, body = input.dataset.body;
  const rows = body === "s" ? form.scene : (form.bodies.find((b) => String(b.index) === body) || { fields: [] }).fields;
  const row = rows.find((r) => r.field === key);
  return row ? row.value : input.value;
}
function buildForm(form) {
  const box = $("scene-form");
  const fieldset = (legend, rows, body) => {
    const set = el("fieldset"); set.append(el("legend", legend));
    for (const row of rows) set.append(fieldInput(row, body));
    return set;
  };
  const scene = fieldset("the scene", form.scene, "s");
  const mode = el("select", null, { "aria-label": "mode", id: "scene-mode" });
  for (const m of form.modes) { const o = el("option", m, { value: m }); if (m === form.mode) o.selected = true; mode.append(o); }
  mode.addEventListener("change", () => edited(page.set_mode(mode.value)));
  const modeLine = el("div", null, { class: "field" });
  modeLine.append(el("label", "mode", { for: "scene-mode" }), mode);
  scene.append(modeLine);
  const parts = [scene];
  for (const b of form.bodies) {
    const set = fieldset(b.name, b.fields, String(b.index));
    const fixed = el("input", null, { type: "checkbox", id: `fixed-${b.index}`, "aria-label": `${b.name} fixed` });
    fixed.checked = b.fixed;
    fixed.addEventListener("change", () => edited(page.set_fixed(b.index, fixed.checked)));
    const fixedLine = el("div", null, { class: "field" });
    fixedLine.append(el("label", `${b.name} fixed`, { for: `fixed-${b.index}` }), fixed);
    set.append(fixedLine);
    if (b.removable) {
      const remove = el("button", `remove ${b.name}`, { type: "button" });
      remove.addEventListener("click", () => edited(page.remove_body(b.index)));
      set.append(remove);
    }
    parts.push(set);
  }
  if (form.canAdd) {
    const add = el("button", "add body", { type: "button", id: "add-body" });
    add.addEventListener("click", () => edited(page.add_body()));
    parts.push(add);
  }
  box.replaceChildren(...parts);
}
function fieldInput(row, body) {
  const id = `field-${body}-${row.field.replaceAll(".", "-")}`;
  const input = el("input", null, { id, type: "text", inputmode: "decimal", autocomplete: "off", "aria-label": row.label,
    "data-field": row.field, "data-body": body });
  input.value = row.value;
  input.addEventListener("change", () => commit(input));
  const line = el("div", null, { class: "field" });
  line.append(el("label", row.label, { for: id }), input);
  if (row.slider) {
    const [lo, hi, step] = row.slider;
    const range = el("input", null, { type: "range", min: lo, max: hi, step, "aria-label": row.sliderLabel,
      "data-field": row.field, "data-body": body });
    range.value = row.value;
    range.addEventListener("change", () => commit(range));
    line.append(range);
  }
  return line;
}
function commit(input) {
  const body = input.dataset.body === "s" ? 0 : Number(input.dataset.body);
  const refused = page.edit(body, input.dataset.field, input.value);
  input.setAttribute("aria-invalid", refused ? "true" : "false");
  edited(refused);
  if (refused) input.value = shownValue(input);  // the old value stays, as in the window
}
function edited(refused) {
  $("form-refusal").textContent = refused || "";
  $("form-refusal").hidden = !refused;
  refresh();
}

function drawMomenta() {
  const m = frame.momenta, W = 340, H = 164, n = m.diagrams.length, cell = W / n, room = [cell - 24, H - 58];
  const points = [[0, 0], ...m.diagrams.flatMap((d) => d.links.flatMap(([, , a, b]) => [a, b]))];
  const lo = [0, 1].map((k) => Math.min(...points.map((p) => p[k]))), hi = [0, 1].map((k) => Math.max(...points.map((p) => p[k])));
  const fits = [0, 1].filter((k) => hi[k] > lo[k]).map((k) => room[k] / (hi[k] - lo[k]));
  const scale = fits.length ? Math.min(...fits) : 0, mid = [0, 1].map((k) => (lo[k] + hi[k]) / 2);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `momenta added tip to tail, ${m.plane} plane` });
  m.diagrams.forEach((d, k) => {
    const ox = k * cell + cell / 2 - scale * mid[0], oy = 16 + (H - 58) / 2 + scale * mid[1];
    const at = (p) => [ox + scale * p[0], oy - scale * p[1]];
    root.append(svg("text", { x: k * cell + cell / 2, y: 12, "text-anchor": "middle" }, d.title));
    const arrow = (a, b, color, dashed) => {
      const [x0, y0] = at(a), [x1, y1] = at(b), len = Math.hypot(x1 - x0, y1 - y0);
      if (len < 0.5) return;
      root.append(svg("line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke: color, "stroke-width": dashed ? 1.6 : 2.5, "stroke-dasharray": dashed ? "5 3" : "none" }));
      const ux = (x1 - x0) / len, uy = (y1 - y0) / len, h = Math.min(9, 0.4 * len);
      root.append(svg("polygon", { fill: color, points: `${x1},${y1} ${x1 - h * ux + 0.45 * h * uy},${y1 - h * uy - 0.45 * h * ux} ${x1 - h * ux - 0.45 * h * uy},${y1 - h * uy + 0.45 * h * ux}` }));
    };
    for (const [name, color, a, b] of d.links) {
      arrow(a, b, color, false);
      const [x0, y0] = at(a), [x1, y1] = at(b);
      if (Math.hypot(x1 - x0, y1 - y0) > 14) root.append(svg("text", { x: (x0 + x1) / 2 + 4, y: (y0 + y1) / 2 - 4, fill: readable(color), "font-weight": "bold" }, name));
    }
    if (d.links.length) arrow(d.links[0][2], d.links[d.links.length - 1][3], frame.momentumColor, true);
    root.append(svg("text", { x: k * cell + cell / 2, y: H - 20, "text-anchor": "middle", fill: frame.momentumColor, class: "total" }, d.total));
  });
  root.append(svg("text", { x: W / 2, y: H - 5, "text-anchor": "middle", class: "plane" }, m.caption));
  $("momenta").replaceChildren(root);
  for (const total of root.querySelectorAll(".total")) {  // a long total in a narrow cell: squeezed, not overlapping
    if (total.getComputedTextLength() > cell - 6) { total.setAttribute("textLength", cell - 6); total.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  }
}

function toast(text) {
  $("toast").textContent = text; $("toast").hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { $("toast").hidden = true; }, 4000);
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawPlot() {
  if (!frame.plot) {  // question mode: the parabola (its roots are the answer) waits for Reveal
    $("plot-title").textContent = "f(t)";
    $("plot").replaceChildren(el("p", "Hidden until Reveal.", { class: "hidden-answer" }));
    return;
  }
  const p = frame.plot, { width: W, height: H, left, right, top, bottom } = data.plotBox;  // Python's PLOT_BOX
  const [t0, t1] = p.range, [f0, f1] = p.fRange;  // as Python frames them (the values' span and a margin)
  const x = (t) => left + ((t - t0) / (t1 - t0)) * (W - left - right);
  const y = (f) => top + ((f1 - f) / (f1 - f0)) * (H - top - bottom);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": p.title });
  for (const [a, b] of p.spans) root.append(svg("rect", { x: x(a), y: top, width: Math.max(0, x(b) - x(a)), height: H - top - bottom, fill: p.colors.contact }));
  root.append(svg("line", { x1: left, x2: W - right, y1: y(0), y2: y(0), class: "axis" }));
  root.append(svg("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "axis" }));
  if (p.horizon >= t0 && p.horizon <= t1) root.append(svg("line", { x1: x(p.horizon), x2: x(p.horizon), y1: top, y2: H - bottom, class: "horizon" }));
  const points = p.t.map((t, k) => (p.f[k] === null ? null : `${x(t).toFixed(2)},${y(Math.max(f0, Math.min(f1, p.f[k]))).toFixed(2)}`)).filter(Boolean);
  root.append(svg("polyline", { points: points.join(" "), class: "curve", stroke: p.colors.curve }));
  if (p.now >= t0 && p.now <= t1) root.append(svg("line", { x1: x(p.now), x2: x(p.now), y1: top, y2: H - bottom, class: "now" }));
  for (const m of p.marks) {  // the roots on the zero line, the vertex a diamond
    if (m.root) root.append(svg("circle", { cx: x(m.t), cy: y(m.f), r: 5, fill: m.color }));
    else root.append(svg("rect", { x: x(m.t) - 4, y: y(m.f) - 4, width: 8, height: 8, fill: p.colors.vertex, transform: `rotate(45 ${x(m.t)} ${y(m.f)})` }));
  }
  for (const [t, text] of p.ticks) root.append(svg("text", { x: x(t), y: H - bottom + 16, "text-anchor": "middle" }, text));
  root.append(svg("text", { x: W / 2, y: H - 4, "text-anchor": "middle" }, "t (frames)"));
  const words = p.marks.map((m) => svg("text", { x: x(m.t), y: y(m.f), "text-anchor": "middle", "dominant-baseline": "central",
    "font-weight": m.root ? "bold" : "normal", class: "mark-words" }, m.text));
  words.forEach((w, k) => { w.style.fill = readable(p.marks[k].color); });  // over the stylesheet's plain text colour
  root.append(...words);
  $("plot-title").textContent = p.title;
  $("plot").replaceChildren(root);
  // each mark's words where Python puts them (explorer.view.plot_words), measured here in the SVG's units
  const sizes = {};
  p.marks.forEach((m, k) => {
    const box = words[k].getBBox();
    sizes[m.name] = box.width > 0 ? [box.width + 4, box.height + 2] : null;  // not laid out: Python estimates it
  });
  const spots = JSON.parse(page.place_plot_words(JSON.stringify({ sizes, area: [W - left - right, H - top - bottom] })));
  p.marks.forEach((m, k) => {
    const spot = spots[m.name];
    if (!spot) { words[k].remove(); return; }
    words[k].setAttribute("x", x(spot[0]));
    words[k].setAttribute("y", y(spot[1]));
  });
}

// labels: each at its 3-D anchor; a body's name beside its sphere, on the right
function cssPoint(world) {
  const [x, y] = view.gl.worldToDisplay(world[0], world[1], world[2], view.renderer);
  const box = view.gl.getCanvas().getBoundingClientRect(), [w, h] = view.gl.getSize();
  return { x: (x * box.width) / w, y: box.height - (y * box.height) / h };
}

// labels: each its 3-D anchor's screen point plus an offset; at rest (not while dragging) Python places them by
// the window's rule from what this script measures (explorer.view.label_places), and hides those with no room near
// their item; Python's frame holds only the labels to show.  Between two placings (while the camera turns) a label
// whose anchor leaves the view is hidden with it, as the rule does (label_places.in_view).
const labelSpans = new Map();   // one span per label name, reused: a drag moves them, it does not rebuild them
const labelOffsets = new Map(); // name -> [dx, dy] in pixels, y up (null: no room)

// a world point's place in CSS pixels from the view's top left, or null when it is behind the camera
function seenPoint(world) {
  const c = view.camera, eye = c.getPosition();
  return dot(sub(world, eye), c.getDirectionOfProjection()) > 0 ? cssPoint(world) : null;
}
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

function placeLabels() {
  if (!frame) return;
  const layer = $("labels"), used = new Set(), box = view.gl.getCanvas().getBoundingClientRect();
  for (const label of frame.labels) {
    let span = labelSpans.get(label.name);
    if (!span) {
      span = el("span", null, { class: "label" });
      labelSpans.set(label.name, span);
      layer.appendChild(span);
    }
    if (span.textContent !== label.text) span.textContent = label.text;
    span.style.color = readable(label.color);
    const at = seenPoint(label.anchor), offset = labelOffsets.has(label.name) ? labelOffsets.get(label.name) : label.offset;
    const inView = at !== null && at.x >= 0 && at.y >= 0 && at.x <= box.width && at.y <= box.height;
    span.hidden = offset === null || !inView;
    if (!span.hidden) {
      span.style.left = `${at.x + offset[0]}px`;
      span.style.top = `${at.y - offset[1]}px`;
    }
    used.add(label.name);
  }
  for (const [key, span] of labelSpans) if (!used.has(key)) span.hidden = true;
}

function layoutLabels() {
  if (!frame || !page || dragging) return;
  const box = view.gl.getCanvas().getBoundingClientRect(), height = box.height;
  const up = (p) => [p.x, height - p.y];
  const right = rightOfView();
  const discs = frame.centers.map((c, i) => {
    const at = cssPoint(c), edge = cssPoint(add(c, scale(right, frame.radii[i])));
    return [...up(at), Math.hypot(edge.x - at.x, edge.y - at.y)];
  });
  const labels = {};
  labelOffsets.clear();
  for (const label of frame.labels) labelOffsets.set(label.name, [0, 0]);  // at their anchors, to measure them
  placeLabels();
  for (const label of frame.labels) {
    const span = labelSpans.get(label.name), at = seenPoint(label.anchor);
    labels[label.name] = [at === null ? null : up(at), [span.offsetWidth, span.offsetHeight]];
  }
  labelOffsets.clear();
  const fixed = [];  // the texts over the view: the colour key and the gestures' hint
  for (const id of ["legend", "status"]) {
    const r = $(id).getBoundingClientRect();
    if (r.width && r.height) fixed.push([r.left - box.left, box.bottom - r.bottom, r.right - box.left, box.bottom - r.top]);
  }
  // each body's velocity arrow (Python says which and where): its name keeps off it
  const arrows = frame.arrows.map((ends) => (ends === null ? null : [...up(cssPoint(ends[0])), ...up(cssPoint(ends[1]))]));
  const spots = JSON.parse(page.place_labels(JSON.stringify({ discs, labels, fixed, viewport: [box.width, height], arrows })));
  for (const [name, offset] of Object.entries(spots)) labelOffsets.set(name, offset);
  placeLabels();
}

function rightOfView() {
  const c = view.camera, dir = c.getDirectionOfProjection(), up = c.getViewUp();
  const r = cross(dir, up), n = norm(r) || 1;
  return scale(r, 1 / n);
}

let labelsScheduled = false, layoutTimer = null;
function scheduleLabels() {
  if (!labelsScheduled) {
    labelsScheduled = true;
    requestAnimationFrame(() => { labelsScheduled = false; placeLabels(); });
  }
  clearTimeout(layoutTimer);   // the camera turned: placed again once it rests
  layoutTimer = setTimeout(layoutLabels, 120);
}

// -- Python, and every action through it -------------------------------------------------------------------
function refresh(moved = 0) {
  const start = performance.now();
  frame = JSON.parse(page.frame());
  if (view.local) keepCamera(view.local, frame.local);
  view.local = frame.local;
  const described = performance.now();
  draw();
  const drawn = performance.now();
  // while a sphere is dragged the 3-D view comes first: the words follow a few times a second (as in the window)
  if (!dragging || drawn - lastText > data.panelSeconds * 1000) { showText(); lastText = performance.now(); }
  else $("verdict").textContent = frame.verdict;
  if (!dragging) layoutLabels();
  timings.push({ python: moved + described - start, draw: drawn - described, text: performance.now() - drawn });
  if (timings.length > 2000) timings.splice(0, 1000);
}

function act(change) {
  if (!page) return;
  change();
  refresh();
}

function ray(event) {
  const box = view.gl.getCanvas().getBoundingClientRect(), [w, h] = view.gl.getSize();
  const x = ((event.clientX - box.left) * w) / box.width, y = h - ((event.clientY - box.top) * h) / box.height;
  const near = Array.from(view.gl.displayToWorld(x, y, 0, view.renderer));
  const far = Array.from(view.gl.displayToWorld(x, y, 1, view.renderer));
  const d = sub(far, near), n = norm(d);
  return JSON.stringify([near, scale(d, 1 / n)]);
}

function bindGestures() {
  const stage = $("stage");
  stage.addEventListener("pointerdown", (event) => {
    if (!page || event.button !== 0) return;
    downAt = [event.clientX, event.clientY];
    const direction = view.camera.getDirectionOfProjection();
    const box = view.gl.getCanvas().getBoundingClientRect();
    const slack = (data.gripPixels * view.camera.getViewAngle() * Math.PI) / 180 / Math.max(box.height, 1);
    if (!page.press(ray(event), JSON.stringify(Array.from(direction)), event.shiftKey, slack)) return;  // empty space: the camera turns
    event.stopPropagation();
    event.preventDefault();
    stage.setPointerCapture(event.pointerId);
    stage.classList.add("grabbing");
    dragging = true;
    lighten(true);
    stopPlaying();
    refresh();
  }, { capture: true });
  stage.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    event.stopPropagation();
    pending.ray = ray(event);             // the newest position only: moves faster than frames are coalesced
    if (!pending.drawing) { pending.drawing = true; requestAnimationFrame(applyMove); }
  }, { capture: true });
  const end = (event) => {
    if (!dragging) return;
    event.stopPropagation();
    dragging = false;
    lighten(false);
    stage.classList.remove("grabbing");
    if (pending.ray) { page.move(pending.ray); pending.ray = null; }
    page.release();
    if (clicked(event)) guessAt(event);  // asking: a click on a sphere is a guess too (where on it they touch)
    refresh();  // everything, now that the button is up
  };
  stage.addEventListener("pointerup", end, { capture: true });
  stage.addEventListener("pointercancel", end, { capture: true });
}

// while the button is held, a lighter frame: the 3-D view drawn at fewer pixels (the browser scales it up)
function lighten(on) {
  const box = $("view").getBoundingClientRect(), k = on ? data.dragScale : 1;
  view.gl.setSize(Math.max(1, Math.floor(box.width * devicePixelRatio * k)), Math.max(1, Math.floor(box.height * devicePixelRatio * k)));
  if (!on) draw();
}

function applyMove() {
  pending.drawing = false;
  if (!dragging || !pending.ray) return;
  const r = pending.ray; pending.ray = null;
  const start = performance.now();
  if (page.move(r)) refresh(performance.now() - start);
  else if (frame) showText();
}

function stopPlaying() {
  if (playTimer !== null) { cancelAnimationFrame(playTimer); playTimer = null; page.set_playing(false); }
}

function play() {
  let last = performance.now();
  page.set_playing(true);
  const step = (now) => {
    page.advance((now - last) / 1000); last = now;
    refresh();
    playTimer = frame.time.playing ? requestAnimationFrame(step) : null;
  };
  playTimer = requestAnimationFrame(step);
}

// run ``advance(seconds)`` (true while it still moves) once a frame, the page redrawn each time; then ``done()``
function animate(advance, done = () => {}) {
  let last = performance.now();
  const step = (now) => {
    const still = advance((now - last) / 1000); last = now;
    refresh();
    if (still) requestAnimationFrame(step); else done();
  };
  requestAnimationFrame(step);
}

// question mode: a click (not a drag) on the view while asking is where the student thinks they will touch
let downAt = null;
function clicked(event) {
  const moved = downAt ? Math.hypot(event.clientX - downAt[0], event.clientY - downAt[1]) : Infinity;
  downAt = null;
  return page && frame.asking && moved <= 5 && !data.recorded;  // more: a drag, or the camera turned
}

function clearGuess() { for (const dot of document.querySelectorAll(".guess-dot")) dot.remove(); }

function guessAt(event) {
  page.guess(frame.guess.hit, ray(event), JSON.stringify(Array.from(view.camera.getDirectionOfProjection())));
  clearGuess();
  const stage = $("stage"), box = stage.getBoundingClientRect();
  const dot = el("span", null, { class: "guess-dot", title: "your guess" });
  dot.style.left = `${event.clientX - box.left}px`; dot.style.top = `${event.clientY - box.top}px`;
  stage.appendChild(dot);
}

// the 3-D view by keyboard (as the window's): Tab into it says the body selected; Tab and Shift+Tab select the next
// and previous (past either end the focus leaves); arrows move it in the drag plane, Shift its velocity, Ctrl a tenth;
// + and - the step.  Python moves it and says so (LivePage.select_body, key_move, key_scale).
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
function bindKeys() {
  const stage = $("stage");
  if (data.recorded) return;  // nothing to move
  stage.tabIndex = 0;
  stage.addEventListener("focus", () => { if (stage.matches(":focus-visible")) act(() => page.select_body(0)); });  // by key
  stage.addEventListener("keydown", (event) => {
    if (event.target !== stage) return;
    if (event.key === "Tab") {
      if (page.select_body(event.shiftKey ? -1 : 1)) { event.preventDefault(); refresh(); }
    } else if (event.key in ARROWS && !event.altKey) {
      event.preventDefault();
      const [across, upward] = ARROWS[event.key];
      const camera = JSON.stringify({ sight: Array.from(view.camera.getDirectionOfProjection()), up: Array.from(view.camera.getViewUp()) });
      act(() => page.key_move(across, upward, event.shiftKey, event.ctrlKey, camera));
    } else if (["+", "=", "-"].includes(event.key)) {
      event.preventDefault();
      act(() => page.key_scale(event.key === "-"));
    }
  });
}

function bindGuess() {
  $("stage").addEventListener("pointerup", (event) => { if (!dragging && clicked(event)) { guessAt(event); refresh(); } });
  $("guess-hit").addEventListener("click", () => act(() => page.guess(true)));
  $("guess-miss").addEventListener("click", () => act(() => page.guess(false)));
  $("reveal").addEventListener("click", () => { act(() => page.reveal()); animate((s) => page.advance_reveal(s)); });
  $("ask").addEventListener("click", () => {
    const asking = frame.asking;
    act(() => page.ask(!asking));
    if (!asking) { clearGuess(); setDefaultCamera(); draw(); }
  });
}

function turn() { animate((s) => page.turn(s), () => { setDefaultCamera(); draw(); }); }

// a file made by the page's Python, downloaded under the name Python gives it (the scene's title)
function download(text, type, suffix) {
  const a = el("a", null, { download: frame.fileName + suffix });
  a.href = URL.createObjectURL(new Blob([text], { type })); a.click(); setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// Open scene…: a scene file from the reader's disk becomes the page's scene (as File > Open in the window);
// a refused file changes nothing and says why
async function openFile(input) {
  const file = input.files[0];
  input.value = "";  // the same file may be chosen again
  if (!file || !page) return;
  if (file.size > data.maxSceneBytes) {
    toast(words.tooLarge.replace("{name}", file.name).replace("{size}", file.size.toLocaleString("en"))
      .replace("{limit}", data.maxSceneBytes.toLocaleString("en")));
    return;
  }
  const refused = page.open_text(await file.text());
  if (refused) { toast(`${file.name}: ${refused}`); return; }
  stopPlaying();
  clearGuess();
  labelOffsets.clear();
  refresh();
  $("title").textContent = frame.title || file.name;
  document.title = $("title").textContent;
  $("description").textContent = frame.description;
  $("description").hidden = !frame.description;
  setDefaultCamera();
  draw();
}

function bindControls() {
  $("play").addEventListener("click", () => { if (playTimer !== null) { stopPlaying(); refresh(); } else play(); });
  $("time").addEventListener("input", () => act(() => { stopPlaying(); page.set_time(frame.time.lo + (Number($("time").value) / 1000) * (frame.time.hi - frame.time.lo)); }));
  $("rest-frame").addEventListener("change", () => { page.set_rest_frame($("rest-frame").checked); turn(); });
  $("com-frame").addEventListener("change", () => { page.set_com_frame($("com-frame").checked); turn(); });
  $("momentum-layer").addEventListener("change", () => act(() => page.set_layer("momentum", $("momentum-layer").checked)));
  $("exact").addEventListener("change", () => act(() => page.set_exact($("exact").checked)));
  $("save-table").addEventListener("click", () => download(page.table_csv(), "text/csv", ".csv"));
  $("undo").addEventListener("click", () => act(() => page.undo()));
  $("redo").addEventListener("click", () => act(() => page.redo()));
  $("reset").addEventListener("click", () => act(() => page.reset()));
  $("reset-camera").addEventListener("click", () => { setDefaultCamera(); draw(); });
  $("frame-all").addEventListener("click", () => { setDefaultCamera(true); draw(); });
  $("save").addEventListener("click", () => download(page.scene_text(), "application/json", ".json"));
  $("open").addEventListener("click", () => $("open-file").click());
  $("open-file").addEventListener("change", () => openFile($("open-file")));
  document.addEventListener("keydown", (event) => {
    if (!page || event.target.tagName === "INPUT") return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key === "z") { event.preventDefault(); act(() => (event.shiftKey ? page.redo() : page.undo())); }
    else if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); act(() => page.redo()); }
    else if (key === "]") act(() => page.step_event(1));
    else if (key === "[") act(() => page.step_event(-1));
  });
}

// a start that failed: the page's guard names a runtime file missing or damaged, or says ``fallback``
async function failStart(fallback) {
  const reason = await window.sphereExplorerFailed(fallback);
  rejectReady(new Error(reason));
}

function reasonOf(error) {  // an error's words, whatever was thrown (Pyodide throws objects that are not Errors)
  const text = error && error.message ? error.message : typeof error === "string" ? error : JSON.stringify(error);
  return String(text).slice(0, 200);
}

async function start() {
  try { vtk = await loadVtk(data.runtime); makeView(); } catch (error) {
    await failStart(words.noWebGL);
    return;
  }
  // the project's sources (small, but read only once Python has started) checked while Python starts: damaged,
  // they are said at once (the page's modules have run: they are whole)
  window.sphereExplorerFailed(null, data.runtime.checkFirst || [])
    .then((reason) => { if (reason) rejectReady(new Error(reason)); });
  // a start that takes long: every few seconds the guard looks at the runtime's files that have arrived (Pyodide
  // waits for good on a damaged WebAssembly file); a damaged one is said at once
  const slow = setInterval(async () => {
    const reason = await window.sphereExplorerFailed(null, null, true);
    if (reason) { clearInterval(slow); rejectReady(new Error(reason)); }
  }, 1000 * data.checkSeconds);
  try {
    if (data.recorded) page = await recordedPage(data.recorded.frames, data.scene);
    else {
      const python = await loadRuntime(data.runtime);
      const module = python.pyimport("explorer.web.live");
      page = module.LivePage(data.scene);
    }
  } catch (error) {
    clearInterval(slow);
    await failStart(words.failed.replace("{reason}", reasonOf(error)));
    return;
  }
  clearInterval(slow);
  if ($("status").dataset.failed) return;  // a damaged file was found while Python started: the page says so
  refresh();
  setDefaultCamera();
  const saved = JSON.parse(page.saved_camera());  // the scene's own camera (the window's, exported); Reset camera frames it
  if (saved) {
    const { position, focal_point: focal, up } = saved;
    view.camera.setFocalPoint(...focal); view.camera.setPosition(...position); view.camera.setViewUp(...up);
    view.renderer.resetCameraClippingRange();
  }
  draw();
  bindGestures();
  bindControls();
  bindGuess();
  bindKeys();
  const touch = matchMedia("(pointer: coarse)").matches;  // a finger: no Shift, no hover
  $("status").textContent = data.recorded ? data.recorded.status : touch ? words.dragTouch : words.drag;
  $("guess-hint").textContent = touch ? words.guessHintTouch : words.guessHint;
  if (!touch && !data.recorded) $("stage").setAttribute("aria-label", words.stageKeys);
  document.body.dataset.ready = "1";
  resolveReady(true);
}

start();
