#!/usr/bin/env python3
"""Was the reference moved, not lost? Every heading, table row, code line and paragraph of README.md as it stood
at a revision (default: the last one before the move to docs/) must still be in README.md or docs/*.md.

Compared after normalising what a move changes: heading levels, line wrapping, link targets (](#x) -> ](page.md#x)),
and the expected status this repository now puts first in a curl example's comment (`# 204 ...`, see docs/README.md).
Prints what is missing, by kind; exit 1 if anything is, unless it is listed in KNOWN with the reason it is gone.

    python3 .ci/check-docs-moved.py [old revision [pages' revision, or . for the working tree]]
"""
import glob
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OLD_REVISION = "8ffe1da"  # main before issue 23: README.md held the whole reference
MOVED_REVISION = "6a6f4a7"  # the pages right after the move, before later edits

# Old text that is deliberately not in the new pages, by the start of its normalised form, with why.
KNOWN = {
    "Status: the foundation,": "the status paragraph became the README's feature list (each item there, with links)",
    "Elsewhere, point the service and the tests at your own servers (below).":
        "'(below)' became links to operations.md and testing.md, where those sections went",
    "| `dlq-desk-consumer` | for the services that consume replays,": "'see \"Consumers\"' became a link to that section",
    "| `bench` | benchmarks on the real stack,": "'(below)' became a link to benchmarks.md",
    "Tested in a real headless Chromium (`ConsoleBrowserIT`, below);": "'below' became a link to testing.md",
    "To separate them anyway, set Spring Boot's": "'the actuator rules above' became a link to them in api.md",
    "Security (`admin-api`)": "heading renamed 'Authentication and roles' (docs/api.md), next to the new 'Endpoints' and 'Errors'",
    "Endpoints (all under `/api/v1`, JSON):": "the endpoint paragraph became the table under 'Endpoints' in docs/api.md",
    "`GET /incidents?topic=&group=": "the endpoint paragraph became the table in docs/api.md: this is its first row",
    "`eventId` finds the incidents": "part of the first row of the endpoint table in docs/api.md",
    "What the events recorded up to that instant say,": "part of the incidents-as-of row of the endpoint table",
    "`POST /incidents/{id}/acknowledge`, `/resolve`, `/discard`": "a row of the endpoint table in docs/api.md",
    "`NOT_ACKNOWLEDGED` for resolving an incident nobody acknowledged);": "the end of that row",
    "`POST /incidents/{id}/replay` (OPERATOR,": "a row of the endpoint table in docs/api.md",
    "`GET /replay-jobs`, `GET /replay-jobs/{id}` (VIEWER)": "two rows of the endpoint table in docs/api.md",
    "`POST /incidents/{id}/attempts/{n}/publish-unknown` (ADMIN,": "a row of the endpoint table in docs/api.md",
    "`PUT /replay-switch` (ADMIN,": "a row of the endpoint table in docs/api.md",
    "curl -u viewer:viewer-local \"$A/rollback-readiness\" # may a deploy roll back now? 200 / 409 / 503":
        "its statuses moved to the front of the comment (200/409/503), where DocumentedCommandsIT reads them",
    "curl -u operator:operator-local -H 'Content-Type: application/json' -d '{\"reason\":\"obsolete order\"}' \"$A/incidents/$ID/discard\"":
        "discards $PAY after acknowledging it: $ID was resolved a line before, and discard needs an ACKED incident",
    "curl -u operator:operator-local -H 'Content-Type: application/json' -d '{\"reason\":\"fix deployed\",\"filter\":{\"topic\":\"orders\"}":
        "the filter names the demo topic (demo.orders, OPEN): the examples run against the demo data",
    "-d '{\"reason\":\"price service 1.4.2 deployed\",\"dryRun\":true,": "filter on the demo topic and group, so the example runs",
    "-d '{\"reason\":\"price service 1.4.2 deployed\",\"filter\":": "filter on the demo topic and group, so the example runs",
    "\"rate\":50,\"maxInFlight\":100,\"canary\":20,": "canary 1, so that the demo's few incidents pause the job and resume has a paused job",
}


def normalise(text):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links move with the page (and "above" became one)
    text = re.sub(r"\b(GET|POST|PUT) /api/v1/", r"\1 /", text)  # paths once relative to /api/v1 are written in full
    text = re.sub(r"#\s+\d{3}(?:/\d{3})*\b:?\s*", "# ", text)  # an example's documented status
    return re.sub(r"\s+", " ", text).strip()


def sentences(paragraph):
    """Split at '. ', '; ' or ': ' before a capital, backtick or bold: the places a paragraph was cut when it moved."""
    return [part.strip() for part in re.split(r"(?<=[.;:)])\s+(?=[A-Z`*(])", paragraph) if part.strip()]


def blocks(markdown):
    """(kind, text) for every heading, table row, code line and paragraph or list item."""
    found = []
    fence = None
    paragraph = []

    def flush():
        if paragraph:
            found.append(("paragraph", " ".join(paragraph)))
            paragraph.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith("```"):
                fence = None
            elif stripped:
                found.append(("code", stripped))
            continue
        if stripped.startswith("```"):
            flush()
            fence = stripped
        elif not stripped:
            flush()
        elif stripped.startswith("#"):
            flush()
            found.append(("heading", stripped.lstrip("#")))
        elif stripped.startswith("|"):
            flush()
            if not re.fullmatch(r"\|[\s:|-]+\|", stripped):
                found.append(("table row", stripped))
        elif re.match(r"([-*]|\d+\.)\s", stripped):
            flush()
            paragraph.append(stripped)
        else:
            paragraph.append(stripped)
    flush()
    return found


def show(revision, path):
    return subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def main():
    revision = sys.argv[1] if len(sys.argv) > 1 else OLD_REVISION
    # the pages as the move left them (later edits rightly change what they say), or the working tree's with "."
    moved = sys.argv[2] if len(sys.argv) > 2 else MOVED_REVISION
    old = show(revision, "README.md")
    if moved == ".":
        pages = [ROOT / "README.md"] + sorted(Path(p) for p in glob.glob(str(ROOT / "docs" / "*.md")))
        texts = {page: page.read_text() for page in pages}
    else:
        listed = subprocess.run(["git", "ls-tree", "--name-only", moved, "docs/"], cwd=ROOT, check=True, capture_output=True,
                                text=True).stdout.split()
        pages = [ROOT / "README.md"] + sorted(ROOT / name for name in listed if name.endswith(".md"))
        texts = {page: show(moved, page.relative_to(ROOT).as_posix()) for page in pages}
    new = "\n".join(normalise(" ".join(b for _, b in blocks(texts[page]))) for page in pages)
    new_lines = {normalise(b) for page in pages for _, b in blocks(texts[page])}

    old_blocks = blocks(old)
    missing, known = [], []
    for kind, text in old_blocks:
        wanted = normalise(text)
        if wanted.lstrip("#").strip() == "" or wanted in new or wanted in new_lines:
            continue
        # a paragraph may have been split or had a sentence moved: then each sentence must be found
        parts = sentences(wanted) if kind == "paragraph" else [wanted]
        for part in parts:
            if part in new:
                continue
            reason = next((why for start, why in KNOWN.items() if part.startswith(start)), None)
            (known if reason else missing).append(("sentence" if len(parts) > 1 else kind, part, reason))

    by_kind = {}
    for kind, _ in old_blocks:
        by_kind[kind] = by_kind.get(kind, 0) + 1
    print(f"old README at {revision}: " + ", ".join(f"{n} {k}s" for k, n in sorted(by_kind.items())))
    print(f"compared with, at {moved}: {', '.join(str(p.relative_to(ROOT)) for p in pages)}")
    for kind, text, reason in known:
        print(f"gone on purpose ({kind}): {text[:110]}…\n    why: {reason}")
    for kind, text, _ in missing:
        print(f"MISSING ({kind}): {text[:160]}")
    print(f"{len(old_blocks) - len(missing) - len(known)} found, {len(known)} gone on purpose, {len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
