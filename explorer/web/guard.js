// Sphere Sweep Explorer: a page that cannot start says why, in words a teacher can act on, within a few seconds,
// and its check contract's `ready` rejects with that reason.  A classic script at the top of the page's head, so
// that it runs where the page's module never does: a file cut short (the end-of-page mark never arrives), a site
// page whose runtime/ files are missing or not the ones it was made with (each file's size and SHA-256 are in the
// page's data, see explorer/web/runtime.py).  live.js asks it (window.sphereExplorerFailed) when its own start
// fails or takes long.  Python writes its words in place of GUARD_WORDS (explorer/web/live_page.py).
(() => {
  const WORDS = GUARD_WORDS;
  let failed = null;

  function say(reason) {  // the reason on the page's status line, for a screen reader too, and `ready` rejected
    if (failed) return failed;
    failed = reason;
    let status = document.getElementById("status");
    if (!status) {
      status = document.createElement("p");
      status.id = "status";
      document.body.prepend(status);
    }
    status.textContent = reason;
    status.setAttribute("role", "alert");
    status.dataset.failed = "1";
    if (!window.sphereExplorer) {  // the page's script never ran: the contract is this much of it
      const ready = Promise.reject(new Error(reason));
      ready.catch(() => {});
      window.sphereExplorer = { ready, failed: reason };
    }
    dispatchEvent(new CustomEvent("sphere-explorer-failed", { detail: reason }));
    return reason;
  }

  function pageData() {
    const element = document.getElementById("page-data");
    try { return element ? JSON.parse(element.textContent) : null; } catch { return null; }
  }

  async function digest(bytes) {  // hex SHA-256, or null where the browser keeps crypto.subtle to secure origins
    if (!(window.crypto && crypto.subtle)) return null;
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // the first runtime file (of ``only``'s names, or any) that is missing or not the one the page was made with;
  // ``arrived``: only of those the page has finished loading (a slow page's files still on their way are not
  // fetched twice)
  async function damaged(only, arrived) {
    const data = pageData();
    const runtime = data && data.runtime;
    if (!runtime || runtime.kind !== "folder" || !runtime.files || location.protocol === "file:") return null;
    for (const [name, want] of Object.entries(runtime.files)) {
      if (only && !only.includes(name)) continue;
      const shown = runtime.base + name;
      if (arrived && performance.getEntriesByName(new URL(shown, document.baseURI).href).length === 0) continue;
      let bytes = null;
      try {
        const answer = await fetch(new URL(shown, document.baseURI));  // as the page got it (its cache too)
        if (answer.ok) bytes = new Uint8Array(await answer.arrayBuffer());
      } catch { bytes = null; }
      if (bytes === null) return WORDS.missing.replace("{file}", shown);
      if (bytes.length !== want.bytes) {
        return WORDS.cutFile.replace("{file}", shown).replace("{got}", bytes.length.toLocaleString("en"))
          .replace("{want}", want.bytes.toLocaleString("en"));
      }
      const hash = await digest(bytes);
      if (hash !== null && hash !== want.sha256) return WORDS.damaged.replace("{file}", shown);
    }
    return null;
  }

  // live.js's question when its start failed (``fallback``: its own words) or takes long, or of the files it checks
  // as it starts (null: not failed yet; ``only``: those files' names; ``arrived``: only those that have arrived)
  window.sphereExplorerFailed = async (fallback, only, arrived) => {
    if (failed) return failed;
    const reason = await damaged(only, arrived);
    return reason || fallback ? say(reason || fallback) : null;
  };

  // A page framed by a site page opened from a file says it is there (see below).
  if (location.protocol === "file:" && window.parent !== window) parent.postMessage("sphere-explorer-page", "*");

  // A site page opened from a file: a browser imports no module there, so its Python never starts.  It goes to its
  // recorded twin if the twin is beside it (a file:// page cannot ask whether a file exists: it loads the twin in a
  // hidden frame, whose guard says it is there), and otherwise says how to get the live page.
  const siteFromFile = () => location.protocol === "file:" && (pageData() || {}).runtime?.kind === "folder";
  let toTwin = false;
  function toRecordedTwin() {
    const twin = document.getElementById("recorded");
    if (!siteFromFile() || !twin) return;
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.title = "";
    addEventListener("message", (event) => {
      if (event.source !== frame.contentWindow || event.data !== "sphere-explorer-page") return;
      toTwin = true;
      location.replace(twin.href);
    });
    frame.src = twin.href;
    document.body.append(frame);
  }

  // a page cut short: how many of its bytes arrived, of those its head says it has (explorer/web/live_page.py)
  function cutShort() {
    const want = Number((document.querySelector('meta[name="page-bytes"]') || {}).content || 0);
    const arrived = performance.getEntriesByType("navigation")[0];
    const got = arrived ? arrived.decodedBodySize : 0;
    if (!(want > 0 && got > 0 && got < want)) return WORDS.cutPage;
    return WORDS.cutPageBytes.replace("{got}", got.toLocaleString("en")).replace("{want}", want.toLocaleString("en"));
  }

  addEventListener("DOMContentLoaded", () => {
    if (!document.getElementById("page-end")) say(cutShort());
    else toRecordedTwin();
  });
  addEventListener("load", async () => {  // every script the page has has run by now, or never will (frames too)
    if (failed || window.sphereExplorer) return;
    if (siteFromFile()) {
      setTimeout(() => { if (!toTwin) say(WORDS.fileUrl); }, 500);  // its twin's word, if it is there, comes first
      return;
    }
    say((await damaged()) || WORDS.noScript);
  });
})();
