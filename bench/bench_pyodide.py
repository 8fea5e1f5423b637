"""Could the phone preview a hand with no signal? The project's own engines in Pyodide, measured.

    npm pack pyodide@314.0.7 && tar xzf pyodide-314.0.7.tgz     # into a folder of your own
    flock /tmp/bench.lock .venv/bin/python bench/bench_pyodide.py --pyodide FOLDER/package

Serves Pyodide's files (not part of the repository: see the README's offline section for
why) and a zip of ``scoring/engine``, ``settlements/engine`` and ``play`` from a local HTTP
server, opens them in headless Chromium with its CPU slowed 4 times (CDP
``Emulation.setCPUThrottlingRate``, a mid-range phone against this machine), and prints:

- the download: the files Pyodide loads for plain Python, raw and gzipped (what a server
  that compresses sends), and the engines' zip;
- the time to start Pyodide, to load the engines, the first preview (004 Sheet 19 hand 1
  under bmja: every seat scored, the hand settled) and a second one; once with an empty
  browser cache and once again from the cache.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import shutil
import tempfile
import threading
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FILES = ("pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
         "pyodide-lock.json")
PREVIEW = '''
import time
from play import check_entry, compute_hand
from play.hand import SessionRules
from play.seating import Seating
from scoring.engine import get_house_rule

def preview():
    rule = get_house_rule("bmja")
    seating = Seating({1: "E", 2: "S", 3: "W", 4: "N"}, "E")
    entry = {"winner": "S", "discarder": "W", "win_from": "discard", "seats": {
        "E": {"score": 12}, "W": {"score": 36}, "N": {"score": 0},
        "S": {"melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                        {"kind": "kong", "tile": "b9"}],
              "concealed": ["b6", "b6", "b6", "we", "we"], "bonus": ["f2"],
              "win": {"tile": "we", "from": "discard"}}}}
    computed = compute_hand(SessionRules(rule), seating, check_entry(entry, seating), 0)
    return computed.seats["S"].score, computed.settlement.net["S"]
'''
PAGE = """<!doctype html><meta charset=utf-8><script src="pyodide/pyodide.js"></script>
<script>
window.run = async function () {
  const t = {}; let at = performance.now();
  const lap = (name) => { const now = performance.now(); t[name] = now - at; at = now; };
  const py = await loadPyodide({ indexURL: "pyodide/" }); lap("start_pyodide_ms");
  const zip = await (await fetch("engines.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/engines" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/engines')");
  py.runPython(PREVIEW_SOURCE); lap("load_engines_ms");
  t.first = py.runPython("preview()").toJs(); lap("first_preview_ms");
  py.runPython("preview()"); lap("second_preview_ms");
  return t;
};
</script>"""


def engines_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for package in ("scoring/engine", "settlements/engine", "play"):
            for path in sorted((REPO / package).rglob("*.py")):
                archive.write(path, path.relative_to(REPO))
        for init in ("scoring/__init__.py", "settlements/__init__.py"):
            archive.write(REPO / init, init)
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyodide", type=Path, required=True,
                        help="the npm package's folder (with pyodide.js, pyodide.asm.wasm...)")
    parser.add_argument("--throttle", type=float, default=4.0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        (site / "pyodide").mkdir()
        raw = packed = 0
        for name in FILES:
            data = (args.pyodide / name).read_bytes()
            (site / "pyodide" / name).write_bytes(data)
            raw, packed = raw + len(data), packed + len(gzip.compress(data, 9))
        engines = engines_zip()
        (site / "engines.zip").write_bytes(engines)
        (site / "index.html").write_text(PAGE.replace("PREVIEW_SOURCE", json.dumps(PREVIEW)))
        print(f"Pyodide for plain Python: {raw / 2**20:.1f} MiB raw, {packed / 2**20:.1f} MiB "
              f"gzipped; the engines' zip {len(engines) / 1024:.0f} KiB")
        handler = functools.partial(QuietHandler, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                str(site / "profile"), executable_path="/usr/bin/chromium", headless=True,
                args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"])
            page = context.pages[0] if context.pages else context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            for visit in ("empty cache", "from the browser's cache"):
                page.goto(url)
                figures = page.evaluate("run()")
                first = figures.pop("first")
                print(f"{visit}, CPU / {args.throttle:g}: " + ", ".join(
                    f"{k[:-3].replace('_', ' ')} {v / 1000:.2f} s" for k, v in figures.items())
                    + f" (South's score {first[0]}, net {first[1]})")
            context.close()
        server.shutdown()
    shutil.rmtree(site, ignore_errors=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript"}

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=3600")
        super().end_headers()

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    main()
