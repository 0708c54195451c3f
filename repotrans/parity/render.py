"""`repotrans parity` output: Markdown (the summary, then per package what is missing, differs or is
port-only; matched declarations only counted), JSON (everything, matched included) and one HTML page."""
from __future__ import annotations

import html
import json

from repotrans.parity.api import ParityReport

TITLES = {"missing": "Missing in the port", "signature": "Signature differences", "port_only": "Port-only",
          "matched": "Matched"}


def render(report: ParityReport, fmt: str) -> str:
    """The report as `md`, `json` or `html`."""
    if fmt == "json":
        return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "html":
        return _html(report)
    if fmt == "md":
        return _markdown(report)
    raise ValueError(f"unknown parity format {fmt!r}")


def _line(e) -> str:
    names = " -> ".join(f"`{n}`" for n in (e.java, e.cs) if n)
    why = f": {'; '.join(e.detail)}" if e.detail else ""
    return f"- {e.kind} {names}{why}"


def _markdown(report: ParityReport) -> str:
    c = report.counts()
    out = ["# API parity", "",
           f"{c['matched']} matched, {c['missing']} missing in the port, {c['signature']} signature "
           f"difference(s), {c['port_only']} port-only, {c['excluded']} excluded.", ""]
    for g in report.groups:
        head = f"{g.package or '(no Java package)'} -> {g.namespace or '(no namespace)'}"
        counts = ", ".join(f"{len(g.of(k))} {k.replace('_', '-')}" for k in TITLES if g.of(k))
        out += [f"## {head}", "", counts, ""]
        for k in ("missing", "signature", "port_only"):
            if g.of(k):
                out += [f"### {TITLES[k]}", ""] + [_line(e) for e in g.of(k)] + [""]
    if report.excluded:
        out += ["## Excluded", ""] + [f"{_line(e)} ({e.category}; rule `{p}`{': ' + r if r else ''})"
                                      for e, p, r in report.excluded] + [""]
    if report.unused_exclusions:
        out += ["## Unused exclusion rules", ""] + [f"- {u}" for u in report.unused_exclusions] + [""]
    return "\n".join(out)


def _html(report: ParityReport) -> str:
    esc = html.escape
    c = report.counts()
    rows = []
    for g in report.groups:
        head = f"{esc(g.package or '(no Java package)')} &rarr; {esc(g.namespace or '(no namespace)')}"
        rows.append(f"<h2>{head}</h2>")
        for k in ("missing", "signature", "port_only", "matched"):
            if not g.of(k):
                continue
            rows.append(f"<details{' open' if k != 'matched' else ''}><summary>{TITLES[k]} ({len(g.of(k))})"
                        "</summary><table><tr><th>kind</th><th>Java</th><th>C#</th><th>detail</th></tr>")
            rows += [f"<tr class='{k}'><td>{esc(e.kind)}</td><td><code>{esc(e.java or '')}</code></td>"
                     f"<td><code>{esc(e.cs or '')}</code></td><td>{esc('; '.join(e.detail))}</td></tr>"
                     for e in g.of(k)]
            rows.append("</table></details>")
    if report.excluded:
        rows.append(f"<h2>Excluded ({len(report.excluded)})</h2><ul>")
        rows += [f"<li>{esc(e.java or e.cs or '')} ({esc(e.category)}; <code>{esc(p)}</code> {esc(r)})</li>"
                 for e, p, r in report.excluded]
        rows.append("</ul>")
    if report.unused_exclusions:
        rows.append("<h2>Unused exclusion rules</h2><ul>" +
                    "".join(f"<li>{esc(u)}</li>" for u in report.unused_exclusions) + "</ul>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>API parity</title><style>"
            "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
            "padding:2px 6px;text-align:left}.missing{background:#fdd}.signature{background:#ffd}"
            ".port_only{background:#def}</style></head><body><h1>API parity</h1>"
            f"<p>{c['matched']} matched, {c['missing']} missing in the port, {c['signature']} signature "
            f"difference(s), {c['port_only']} port-only, {c['excluded']} excluded.</p>"
            + "\n".join(rows) + "</body></html>\n")
