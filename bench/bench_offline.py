"""Recording without signal (issue #24): what the phone keeps, and how long the queue takes to go.

    flock /tmp/bench.lock .venv/bin/python bench/bench_offline.py [--hands 20] [--repeats 2]

Starts the server of tests/web/test_browser_offline.py (runserver on a fresh SQLite file) and
a phone-sized headless Chromium with its profile on disk, opens a table's page and record
page with signal (the service worker keeps them), then prints:

- what the phone keeps: each cache's entries and bytes (the bodies as stored), and the
  browser's own estimate of the site's storage (navigator.storage.estimate);
- for each repeat: ``--hands`` hands saved with no signal, then the network switched on, and
  the time from then until the server holds every hand and the page's queue is empty.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django  # noqa: E402

django.setup()  # the test module's helpers import the models
from tests.web import test_browser_offline as t  # noqa: E402

CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    let bytes = 0, entries = 0;
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      bytes += (await response.arrayBuffer()).byteLength;
      entries += 1;
    }
    out[name] = {entries, bytes};
  }
  const estimate = navigator.storage && await navigator.storage.estimate();
  out.estimate = estimate ? estimate.usage : null;
  return out;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=2, choices=[1, 2],
                        help="one per table of the server's night")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    hands = (t.HANDS * (args.hands // len(t.HANDS) + 1))[:args.hands]
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        server = t.Server(Path(folder))
        try:
            context, page = t.open_phone(p, Path(folder) / "phone")
            t.log_in(page, server)
            for repeat in range(args.repeats):
                table = server.night["tables"][repeat]
                t.ready_offline(page, server, table)
                if repeat == 0:
                    kept = page.evaluate(CACHED)
                    total = sum(v["bytes"] for k, v in kept.items() if k != "estimate")
                    for name, figures in kept.items():
                        if name != "estimate":
                            print(f"cache {name}: {figures['entries']} entries, "
                                  f"{figures['bytes'] / 1024:.1f} KiB")
                    print(f"kept for one table: {total / 1024:.1f} KiB; the browser's estimate "
                          f"of the site's storage: {(kept['estimate'] or 0) / 1024:.1f} KiB")
                context.set_offline(True)
                for i, (winner, scores) in enumerate(hands, start=1):
                    t.enter_hand(page, winner, scores)
                    t.save_offline(page, i)
                began = time.monotonic()
                context.set_offline(False)
                t.wait_drained(page, server, table, hands=len(hands), seconds=300)
                print(f"signal back to {len(hands)} hands drained: "
                      f"{time.monotonic() - began:.2f} s")
            context.close()
        finally:
            server.stop()
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
