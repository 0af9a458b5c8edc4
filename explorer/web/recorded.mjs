// Sphere Sweep Explorer: a recorded page's stand-in for the live page's Python.  It plays frames that Python
// described at export (explorer/web/recorded.py: LivePage.frame in CPython, in every state the page can reach
// without solving), and answers live.js with LivePage's own methods.  It keeps only the state (the stage of the
// question, the instant, the frame of reference, the momentum switch, the clocks, the student's answer) and hands
// over the frame recorded for it: what is drawn and said is Python's.
import { gunzip } from "./runtime-loader.mjs";

// the page's recording (a <script> of base64 gzip JSON), read and unpacked
export async function recordedPage(id, sceneText) {
  const bytes = await gunzip(document.getElementById(id).textContent.trim());
  return new RecordedPage(JSON.parse(new TextDecoder().decode(bytes)), sceneText);
}

class RecordedPage {
  constructor(recording, sceneText) {
    this.r = recording;
    this.sceneText = sceneText;
    this.reference = "world";
    this.momentum = recording.momentum;
    this.asking = recording.opensAsking;
    this.revealed = null;  // seconds into the reveal, null when not revealing
    this.index = 0;        // the instant shown
    this.playing = false;
    this.clock = 0;        // the time played to (between instants)
    this.answer = null;    // the student's answer: true (they touch), false (they miss), null
  }

  // -- the frame recorded for the state -------------------------------------------------------------------
  states() { return this.r.states[this.reference][this.momentum ? "1" : "0"]; }

  current() {
    const states = this.states();
    if (this.asking) return states.asking;
    if (this.revealed !== null) {
      let at = states.reveal[0][1];
      for (const [start, k] of states.reveal) if (start <= this.revealed) at = k;
      return at;
    }
    return states.shown[this.index];
  }

  decoded(k) {
    const parts = this.r.parts, out = {};
    this.r.keys.forEach((key, j) => {
      const entry = this.r.frames[k][j];
      const items = (list) => list.map((p) => parts[p]);  // an entry kept item by item (recorded.py's _Frames)
      out[key] = Array.isArray(entry) ? items(entry) : typeof entry === "object"
        ? Object.fromEntries(Object.entries(entry).map(([k, list]) => [k, items(list)])) : parts[entry];
    });
    return out;
  }

  frame() {
    const f = this.decoded(this.current());
    f.time = { ...f.time, playing: this.playing };
    f.guess = { hit: this.answer, placed: false };
    f.score = f.answered && this.answer !== null ? this.r.scores[this.answer ? "hit" : "miss"] : null;
    return JSON.stringify(f);
  }

  // the default camera (Frame all: ``whole``) recorded for the view's aspect nearest this one (0: unknown, wide)
  default_camera(aspect, whole) {
    const aspects = this.r.aspects, wanted = aspect > 0 ? aspect : aspects[aspects.length - 1];
    let k = 0;
    for (let j = 1; j < aspects.length; j++) if (Math.abs(aspects[j] - wanted) < Math.abs(aspects[k] - wanted)) k = j;
    return JSON.stringify(this.decoded(this.current()).cameras[whole ? "whole" : "framed"][k]);
  }

  saved_camera() { return this.r.savedCamera; }  // the scene's own camera, in the frame the page draws in
  place_labels() { return "{}"; }  // labels stay at their recorded offsets (no Python to place them here)

  // f(t)'s words where Python placed them at export, each word's size estimated (explorer/web/live.py)
  place_plot_words() { return JSON.stringify(this.decoded(this.current()).plotWords); }
  scene_text() { return this.sceneText; }
  // while asking (and until the reveal ends), what the live page gives: that it asks, and the question
  solution_text() { return this.asking || this.revealed !== null ? this.r.askedSolution : this.r.solution; }
  table_csv() { return ""; }

  // -- time -----------------------------------------------------------------------------------------------
  endReveal() { this.revealed = null; }

  set_time(t) {
    if (this.asking) return;
    this.endReveal();
    const times = this.r.times;
    let best = 0;
    for (let k = 1; k < times.length; k++) if (Math.abs(times[k] - t) < Math.abs(times[best] - t)) best = k;
    this.index = best;
    this.clock = times[best];
  }

  set_playing(on) {
    if (this.asking) return;
    this.endReveal();
    const last = this.r.times.length - 1;
    if (on && this.index >= last) this.index = 0;
    this.playing = Boolean(on);
    this.clock = this.r.times[this.index];
  }

  advance(seconds) {
    if (!this.playing) return;
    const times = this.r.times, last = times.length - 1;
    this.clock += seconds * this.r.playRate;
    if (this.clock >= times[last]) { this.index = last; this.playing = false; return; }
    while (this.index < last && times[this.index + 1] <= this.clock) this.index += 1;
  }

  inspect(event) { if (event !== null && event !== undefined) this.set_time(this.r.events[event]); }

  step_event(direction) {
    if (this.asking) return;
    const now = this.r.times[this.index];
    const next = direction > 0 ? this.r.events.find((t) => t > now) : this.r.events.filter((t) => t < now).pop();
    if (next !== undefined) this.set_time(next);
  }

  // -- frames of reference and the momentum switch ------------------------------------------------------------
  set_rest_frame(on) {
    if (on && (this.asking || this.revealed !== null)) return;  // not recorded: its body is an answer
    this.turnTo("rest", on);
  }

  set_com_frame(on) { this.turnTo("com", on); }

  turnTo(reference, on) {  // a frame the page left out (to keep within its budget) is not turned to
    if (on && reference in this.r.states) this.reference = reference;
    else if (!on && this.reference === reference) this.reference = "world";
  }
  turn() { return false; }
  set_layer(name, on) { if (name === "momentum") this.momentum = Boolean(on); }

  // -- question mode ------------------------------------------------------------------------------------------
  ask(on) {
    this.answer = null;
    this.revealed = null;
    this.asking = Boolean(on);
    if (!on) return;
    this.playing = false;
    this.index = 0;
    if (this.reference === "rest") this.reference = "world";  // as LivePage.ask: leaves B's rest frame
  }

  reveal() { if (this.asking) { this.asking = false; this.revealed = 0; } }

  advance_reveal(seconds) {
    if (this.revealed === null) return false;
    this.revealed += Math.max(0, seconds);
    if (this.revealed < this.r.revealSeconds) return true;
    this.revealed = null;
    this.index = this.r.revealEnd;
    return false;
  }

  guess(hit) { if (this.asking) this.answer = hit === null || hit === undefined ? null : Boolean(hit); }

  // -- what needs Python: nothing happens -------------------------------------------------------------------
  press() { return false; }
  move() { return false; }
  release() {}
  undo() {}
  redo() {}
  reset() {}
  open_text() { return ""; }
  edit() { return ""; }
  set_fixed() { return ""; }
  set_mode() { return ""; }
  add_body() { return ""; }
  remove_body() { return ""; }
}
