"""Search on the built site opened from disk (``file://``), without a network.

Material's search runs in a Web Worker, and browsers refuse to start a worker from a
``file://`` page. Its offline plugin therefore loads a shim from a public CDN, which a
reader without a network (or a careful one) does not reach. This module's script is
the project's own small replacement: on a ``file://`` page it runs the worker's script
in a hidden same-origin frame, where a ``<script>`` tag may load it, and carries the
messages between the page and that frame. Served over http the real Worker is used.

The file name contains ``iframe-worker``: the offline plugin adds its CDN shim only
when no such polyfill is configured (``extra.polyfills`` in mkdocs.yml).
"""

from __future__ import annotations

FILE_WORKER_PATH = "assets/file-iframe-worker.js"

FILE_WORKER_JS = r"""
(function () {
  "use strict";
  if (location.protocol !== "file:" || window.IFrameWorker) return;

  // A worker whose script runs in a hidden frame of this page: the frame's own
  // postMessage and "message" events stand for the worker's global ones.
  class FileWorker extends EventTarget {
    constructor(url) {
      super();
      this.queue = [];
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      this.frame.setAttribute("aria-hidden", "true");
      this.frame.srcdoc = "<!doctype html><script>window.__host = null;<\/script>";
      this.frame.addEventListener("load", () => this.start(new URL(url, location.href)));
      document.body.appendChild(this.frame);
    }

    start(url) {
      const scope = this.frame.contentWindow;
      scope.postMessage = (data) => {
        setTimeout(() => this.dispatchEvent(new MessageEvent("message", { data })));
      };
      scope.importScripts = () => {
        throw new Error("importScripts is not available to a worker run from disk");
      };
      scope.addEventListener("error", (event) =>
        this.dispatchEvent(new ErrorEvent("error", { message: event.message })));
      const script = scope.document.createElement("script");
      script.src = url.href;
      script.addEventListener("load", () => {
        this.ready = true;
        this.queue.splice(0).forEach((data) => this.deliver(data));
      });
      scope.document.head.appendChild(script);
    }

    deliver(data) {
      const scope = this.frame.contentWindow;
      scope.dispatchEvent(new scope.MessageEvent("message", { data }));
    }

    postMessage(data) {
      if (this.ready) this.deliver(data); else this.queue.push(data);
    }

    terminate() {
      this.frame.remove();
    }

    set onmessage(handler) { this.addEventListener("message", handler); }
    set onerror(handler) { this.addEventListener("error", handler); }
  }

  window.IFrameWorker = FileWorker;
  window.Worker = FileWorker;
})();
"""

__all__ = ["FILE_WORKER_JS", "FILE_WORKER_PATH"]
