// Sphere Sweep Explorer: the script of an exported page.  It loads the 3-D scene into vtk.js's offline
// viewer, then moves the exported actors to the recorded instant of the time slider, switches between
// the world and B's rest frame, and keeps the text labels over their 3-D anchors.  Every word and
// colour it shows comes from the page's data (written by explorer/web); text goes in as text only.
(() => {
  "use strict";
  const data = JSON.parse(document.getElementById("page-data").textContent);
  const $ = (id) => document.getElementById(id);
  const view = $("view"), labelLayer = $("labels"), slider = $("time"), readout = $("time-value");
  const playButton = $("play"), restFrame = $("rest-frame"), note = $("note"), nowLine = $("now-line");
  const state = { frame: "world", index: 0, actors: null, renderer: null, window: null, camera: null, home: null };
  let playing = null;
  let placing = false;

  window.global = window.global || {};
  // the viewer calls this once it is ready: load the scene into our own element, not the whole page
  window.loadDataSet = () => {
    window.loadDataSet = null;
    window.OfflineLocalView.load(view, { base64Str: data.scene });
    waitForScene(Date.now());
  };

  function waitForScene(started) {
    const rw = window.global.renderWindow;
    const found = new Map();
    if (rw) {
      for (const renderer of rw.getRenderers()) {
        for (const actor of renderer.getActors()) {
          const id = actor.get("remoteId").remoteId;
          if (id) found.set(id, actor);
        }
      }
    }
    const wanted = [...data.frames.world.ids, ...data.frames.relative.ids];
    if (!rw || !wanted.every((id) => found.has(id))) {
      if (Date.now() - started > data.loadSeconds * 1000) {
        $("loading").textContent = data.words.failed;
        return;
      }
      setTimeout(() => waitForScene(started), 50);
      return;
    }
    state.actors = found;
    state.window = rw;
    // the scene's own renderer (the viewer adds an empty one of its own)
    state.renderer = rw.getRenderers().find((r) => r.getLayer() === 0 && r.get("remoteId").remoteId);
    state.camera = state.renderer.getActiveCamera();
    const aspect = view.clientWidth / Math.max(view.clientHeight, 1);
    if (aspect < data.viewAspect) state.camera.dolly(aspect / data.viewAspect); // narrower: step back, keep the width
    state.home = {
      position: state.camera.getPosition(), focalPoint: state.camera.getFocalPoint(),
      viewUp: state.camera.getViewUp(), viewAngle: state.camera.getViewAngle(),
    };
    state.camera.onModified(scheduleLabels);
    window.addEventListener("resize", scheduleLabels);
    makeLabels();
    show();
    $("loading").hidden = true;
    document.body.dataset.ready = "1";
  }

  // -- the picture at the current instant and frame -------------------------------------------------
  function show() {
    const frame = data.frames[state.frame], other = data.frames[state.frame === "world" ? "relative" : "world"];
    const index = state.index;
    for (const id of other.ids) state.actors.get(id).setVisibility(false);
    for (const id of frame.ids) state.actors.get(id).setVisibility(true);
    for (const track of frame.tracks) {
      const [x, y, z, s, visible] = track.at[index];
      const actor = state.actors.get(track.id);
      actor.setPosition(x, y, z);
      actor.setScale(s, s, s);
      actor.setVisibility(visible === 1);
    }
    state.renderer.resetCameraClippingRange();
    state.window.render();
    placeLabels();
    let line = null;
    for (const [from, text] of frame.notes) if (from <= index) line = text;
    note.textContent = line || "";
    note.hidden = !line;
    readout.textContent = "t = " + data.timeLabels[index];
    moveNowLine(data.times[index]);
  }

  function moveNowLine(t) {
    const axes = data.plotAxes, svg = document.querySelector("#plot svg");
    if (!svg || t < axes.t0 || t > axes.t1) {
      nowLine.hidden = true;
      return;
    }
    const box = svg.getBoundingClientRect(), plot = svg.parentElement.getBoundingClientRect();
    const scale = box.width / data.plotSize[0];
    const x = axes.x0 + ((t - axes.t0) / (axes.t1 - axes.t0)) * (axes.x1 - axes.x0);
    nowLine.hidden = false;
    nowLine.style.left = `${box.left - plot.left + x * scale - 1}px`;
    nowLine.style.top = `${box.top - plot.top + axes.y0 * scale}px`;
    nowLine.style.height = `${(axes.y1 - axes.y0) * scale}px`;
  }

  // -- text labels over their 3-D anchors ----------------------------------------------------------
  function makeLabels() {
    labelLayer.replaceChildren();
    for (const label of data.frames[state.frame].labels) {
      const element = document.createElement("span");
      element.className = "label";
      element.textContent = label.text;
      element.style.color = label.color;
      label.element = element;
      labelLayer.appendChild(element);
    }
  }

  function scheduleLabels() {
    if (!placing) {
      placing = true;
      requestAnimationFrame(() => {
        placing = false;
        placeLabels();
      });
    }
  }

  function placeLabels() {
    const width = view.clientWidth, height = view.clientHeight;
    for (const label of data.frames[state.frame].labels) {
      let at, visible;
      if (label.follow) {
        const actor = state.actors.get(label.follow);
        at = actor.getPosition();
        visible = actor.getVisibility();
      } else {
        const row = label.at[Math.min(state.index, label.at.length - 1)];
        at = row.slice(0, 3);
        visible = row[3] === 1;
      }
      const [nx, ny, nz] = state.renderer.worldToNormalizedDisplay(at[0], at[1], at[2], width / height);
      visible = visible && nz > 0 && nz < 1 && nx > -0.2 && nx < 1.2 && ny > -0.2 && ny < 1.2;
      label.element.hidden = !visible;
      label.element.style.left = `${nx * width + label.dx}px`;
      label.element.style.top = `${(1 - ny) * height - label.dy}px`;
    }
  }

  // -- the controls --------------------------------------------------------------------------------
  function setIndex(index) {
    state.index = Math.max(0, Math.min(data.times.length - 1, index));
    slider.value = String(state.index);
    if (state.actors) show();
  }

  slider.addEventListener("input", () => {
    stop();
    setIndex(Number(slider.value));
  });

  restFrame.addEventListener("change", () => {
    state.frame = restFrame.checked ? "relative" : "world";
    if (state.actors) {
      makeLabels();
      show();
    }
  });

  $("reset-camera").addEventListener("click", () => {
    if (!state.camera) return;
    state.camera.set(state.home);
    show();
  });

  $("frame-all").addEventListener("click", () => {
    if (!state.camera) return;
    const [lo, hi] = data.whole[state.frame];
    state.camera.set(state.home);  // the home direction, moved back until the whole box is in view
    state.renderer.resetCamera([lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]]);
    show();
  });

  function stop() {
    if (playing !== null) cancelAnimationFrame(playing.frame);
    playing = null;
    playButton.textContent = data.words.play;
  }

  playButton.addEventListener("click", () => {
    if (playing !== null) {
      stop();
      return;
    }
    const times = data.times, last = times.length - 1;
    playing = { t: state.index >= last ? 0 : times[state.index], clock: performance.now(), frame: 0 };
    playButton.textContent = data.words.pause;
    const step = (now) => {
      playing.t += ((now - playing.clock) / 1000) * data.playRate;
      playing.clock = now;
      let index = state.index >= last ? 0 : state.index;
      while (index < last && times[index + 1] <= playing.t) index += 1;
      setIndex(index);
      if (index >= last) stop();
      else playing.frame = requestAnimationFrame(step);
    };
    playing.frame = requestAnimationFrame(step);
  });

  window.addEventListener("resize", () => moveNowLine(data.times[state.index]));
  // the state of the page, for the tests and for anyone curious (read-only use)
  window.sphereExplorer = { state, data, setIndex };
})();
