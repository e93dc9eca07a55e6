"""Rendering for the terminal (rich, colour only where supported) and JSON for scripts."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from brainq.paths import shown
from brainq.scoring import as_known, coarse_age
from brainq.store import StoredDocument
from brainq.verdict import days as plural_days

if TYPE_CHECKING:  # importing ingest would load every parser for `brainq list` and `status`
    from brainq.ingest import IngestReport

# rich honours NO_COLOR and turns colour off when the stream is not a terminal.
class _Console(Console):
    def on_broken_pipe(self) -> None:
        """The reader stopped reading (`brainq status | head`): the CLI ends quietly with
        SIGPIPE's status, as for plain output (rich's own way exits with 1). Progress and
        failures on a stderr nobody reads any more are dropped; the work and stdout go on."""
        self.quiet = True
        if not self.stderr:
            raise BrokenPipeError


out = _Console(highlight=False, soft_wrap=True)
err = _Console(stderr=True, highlight=False, soft_wrap=True)


def _failed(files: int, parts: int) -> str:
    """Failed files, and the failed parts of stored files (an attachment, a message, an event)."""
    return f"{files} failed" + (f" (and {parts} {'part' if parts == 1 else 'parts'} of stored files)" if parts else "")


def _share(value: float | None) -> str:
    """A share of questions, or "-" where there were none to share (no answers given)."""
    return "-" if value is None else str(value)


def print_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")


class FileProgress:
    """A progress bar (files, and for an ingest chunks and rate, ETA) on a terminal; nothing
    at all under cron."""

    def __init__(self, enabled: bool, work: str = "ingest"):
        self.bar = None
        if enabled and err.is_terminal:
            counted = "files · {task.fields[chunks]} chunks · {task.fields[rate]}" if work == "ingest" else "files"
            self.bar = Progress(
                TextColumn(f"[bold]{work}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(counted),
                TimeRemainingColumn(),
                console=err,
                transient=True,
            )
        self.task = None
        self.chunks = 0

    def __enter__(self):
        if self.bar:
            self.bar.start()
        return self

    def __exit__(self, *exc):
        if self.bar:
            self.bar.stop()

    def total(self, files: int) -> None:
        """The files of the work; told again (`forget A B`), the one bar grows."""
        if self.bar and self.task is None:
            self.task = self.bar.add_task("files", total=files, chunks=0, rate="")
        elif self.bar:
            self.bar.update(self.task, total=self.bar.tasks[0].total + files)

    def file_done(self, path: str, status: str, chunks: int) -> None:
        if self.bar is None or self.task is None:
            return
        self.chunks += chunks
        elapsed = self.bar.tasks[0].elapsed or 0
        rate = f"{self.chunks / elapsed:.1f} chunks/s" if elapsed > 1 else ""
        self.bar.update(self.task, advance=1, chunks=self.chunks, rate=rate)

    def stopping(self) -> None:
        """Said at once, even under --quiet: someone pressed Ctrl-C and is waiting."""
        (self.bar.console if self.bar else err).print(
            "stopping (Ctrl-C again stops at once); the next run finishes the rest"
        )


def print_ingest_report(report: IngestReport, as_json: bool, quiet: bool, named: frozenset[str] = frozenset()) -> None:
    """The run in one line, each failure on one of its own, and why a file `named` on the
    command line was passed over (a file a folder holds that brainq does not read is only
    counted: a photo library's sidecars would bury the line)."""
    if as_json:
        print_json(report.to_json())
        return
    for failure in report.failures:
        err.print(f"failed: {shown(failure.path)}: {shown(failure.reason)}", markup=False)
    if quiet:
        return
    for skip in report.skipped_files:
        if skip.path in named:
            err.print(f"skipped: {shown(skip.path)}: {shown(skip.reason)}", markup=False)
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(report.by_kind.items()))
    unchanged = f"{report.unchanged} unchanged"
    if report.still_unread:  # failed before, and passed over until they change
        unchanged += f" ({report.still_unread} of them unread, as before: `brainq status` says why)"
    line = (
        f"{report.added} added, {report.updated} updated, {unchanged}, "
        f"{report.removed} removed, {_failed(report.failed, report.parts_failed)}, {report.skipped} skipped"
        f" · {counted(report.documents, 'document')}, {counted(report.chunks, 'chunk')} in {report.seconds:.1f} s"
    )
    if kinds:
        line += f" ({kinds})"
    if report.interrupted:
        line = "interrupted; run again to continue. " + line
    out.print(line, markup=False)


def check_lines(c: dict, store: str) -> list[str]:
    """What `status --check` found and did, in the order a person would act on it."""
    lines = []
    if c["moved_aside"]:
        lines.append(f"check: the vectors could not be used; moved aside to {shown(c['moved_aside'])} (delete it once all is well)")
    if c["problem"]:
        return [*lines, f"check: {c['problem']}"]
    disagree = c["missing_vectors"] or c["orphan_vectors"]
    state = "disagree" if disagree else "agree"
    if c["repaired"]:
        state = f"repaired ({c['restored_vectors']} vectors made again from the catalog's text)"
    lines.append(
        f"check: catalog and vectors {state} ({c['chunks']} chunks, {c['missing_vectors']} missing "
        f"vectors, {c['orphan_vectors']} orphan vectors)"
    )
    if c["vocabulary_missing"] and not c["repaired"]:
        lines.append("check: the vocabulary's vectors are missing (questions are not expanded with the store's words)")
    if c["restored_words"]:
        lines.append(f"check: {c['restored_words']} words of the vocabulary made again from the catalog's text")
    if (disagree or c["vocabulary_missing"]) and not c["repaired"]:
        lines.append(f"  mend with: brainq --store {shown(store)} status --check --repair")
    if c["files_pending"]:
        lines.append(f"check: {len(c['files_pending'])} files left half-done by an interrupted run; "
                     f"`brainq --store {shown(store)} backfill` finishes them")
        lines += [f"  to redo: {shown(path)}" for path in c["files_pending"][:20]]
    return lines


def counted(n: int, noun: str, plural: str = "") -> str:
    """"1 document", "2 documents"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def print_status(info: dict, as_json: bool) -> None:
    if as_json:
        print_json(info)
        return
    out.print(f"[bold]store[/] {escape(shown(info['store']))}  ({info['size_bytes'] / 2**20:.1f} MB)")
    copies = info["copies_folded"]
    out.print(f"{counted(info['documents'], 'document')}, {counted(info['chunks'], 'chunk')} from "
              f"{counted(info['files'], 'file')} ({info['files_with_errors']} with errors)"
              + (f"; {info['files_skipped']} skipped (empty, or of no kind brainq reads)"
                 if info["files_skipped"] else "")
              + (f"; {counted(copies, 'copy', 'copies')} of documents counted once" if copies else ""))
    if info["by_type"]:
        out.print("by type: " + ", ".join(f"{t} {n}" for t, n in info["by_type"].items()), markup=False)
    if info["by_year"]:
        out.print("by year: " + ", ".join(f"{y} {n}" for y, n in info["by_year"].items()), markup=False)
    if info.get("origin"):
        out.print(f"origin: {info['origin']} on the Chroma server at {info['chroma_url']}", markup=False)
    for source in info["sources"]:
        out.print(f"source: {shown(source)}", markup=False)
    failed = info["failed_files"]
    for failure in failed[:20]:
        label = "partly unread" if failure["part"] else "unread"
        out.print(f"{label}: {shown(failure['path'])}: {shown(failure['reason'])}", markup=False)
    if len(failed) > 20:
        out.print(f"and {len(failed) - 20} more (`brainq status --json` lists them all)", markup=False)
    if "check" in info:
        for line in check_lines(info["check"], info["store"]):
            out.print(line, markup=False)
    for run in info["last_runs"][:1]:
        if run["finished_at"] is None:
            out.print(
                f"last run: {run['command']} started at {run['started_at']} has not finished: still running, "
                "or stopped (killed, or failed); the next ingest or backfill goes on from where it stopped",
                markup=False,
            )
            continue
        out.print(
            f"last run: {run['command']} at {run['finished_at']}: {run.get('added', 0)} added, "
            f"{run.get('updated', 0)} updated, {run.get('removed', 0)} removed, "
            f"{_failed(run.get('failed', 0), run.get('parts_failed', 0))}",
            markup=False,
        )
        listed = {failure["path"] for failure in failed}
        for failure in [f for f in run.get("failures", []) if f["path"] not in listed][:20]:
            out.print(f"  failed: {shown(failure['path'])}: {shown(failure['reason'])}", markup=False)


def print_documents(docs: Iterable[StoredDocument], as_json: bool) -> None:
    """One line per document; where none fits, a line on stderr says so (stdout stays empty,
    for a script, as `--json` does)."""
    shown = False
    for doc in docs:
        shown = True
        if as_json:
            print_json(doc.to_json())
            continue
        when = f"{_when(doc):<10}"
        flag = "?" if doc.date_source == "mtime" else " "
        where = _where(doc)
        copies = f"  {_more_copies(doc.copies)}" if doc.copies else ""
        ocr = "  (OCR)" if doc.ocr else ""
        out.print(f"{when}{flag} {doc.doc_type:<14} {_fitted(_title(doc, 60), 60)}  {where}{copies}{ocr}", markup=False)
    if not shown and not as_json:
        err.print("no documents match", markup=False)


_LEVEL_STYLE = {"answer": "bold green", "verify": "bold yellow", "unknown": "bold red"}
_LEVEL_WORDS = {"answer": "ANSWER", "verify": "VERIFY", "unknown": "I DON'T KNOW"}


def _when(doc) -> str:
    return as_known(doc.source_date, doc.date_precision) if doc.source_date else "undated"


def _age(s, as_of: date) -> str:
    """How long ago, in the unit the date is known to: a date known to the year is "this year",
    not "0 days ago"."""
    days, coarse = s.age_days, coarse_age(s.doc, as_of)
    if days is None:
        return "age unknown"
    if coarse:
        return coarse if coarse.startswith("this") else f"{coarse} ago"
    if days < 60:
        return f"{plural_days(days)} ago"
    if days < 730:
        return f"{days / 30.4:.0f} months ago"
    return f"{days / 365.25:.0f} years ago"


def _title(doc, width: int | None = None) -> str:
    """A title on one line: one made of a file's name may hold a line break."""
    return shown(" ".join(doc.title.split()))[:width]


def _fitted(text: str, width: int) -> str:
    """`text` cut and padded to `width` terminal columns, where a Chinese, Japanese or Korean
    character, a full-width mark or an emoji takes two: such a title pushed the columns after
    it out of line."""
    while cell_len(text) > width:
        text = text[:-1]
    return text + " " * (width - cell_len(text))


def _more_copies(places: list) -> str:
    """The copies of a document found at other paths, as `list` and `ask` both say it."""
    return f"(+{len(places)} cop{'ies' if len(places) > 1 else 'y'})"


def _where(doc) -> str:
    return shown(doc.place)


def print_answer(answer, config, explain: bool) -> None:
    from brainq.ask import bucket_of, buckets

    v = answer.verdict
    out.print(f"[{_LEVEL_STYLE[v.level]}]{_LEVEL_WORDS[v.level]}[/] ({v.confidence:.2f}) {escape(v.reason)}")
    if answer.answer:
        out.print(f"  {escape(answer.answer)}")
        out.print(f"  [dim]— {answer.source.doc.doc_type}, {_when(answer.source.doc)}[/]")
    for s, says in v.conflict:
        out.print(f"  [yellow]{_when(s.doc)}[/] {s.doc.doc_type}: {escape(says)}  [dim]{escape(_where(s.doc))}[/]")
    if explain:
        _print_explain(answer)
    # The timeline, newest bucket first; within a bucket, by rank. Results below the relevance
    # floor are no evidence: shown only when there is none, as what came closest.
    shown = answer.evidence
    if not shown and answer.results:
        out.print("\n[bold]CLOSEST[/] [dim](none relevant enough to answer)[/]")
        for s in answer.results:
            date_note = " [dim](file date)[/]" if s.doc.date_source == "mtime" else ""
            out.print(f"  {_when(s.doc)}{date_note}  {_age(s, answer.as_of):<15} {s.doc.doc_type:<14} {escape(_title(s.doc, 70))}")
            out.print(f"      [dim]{escape(_where(s.doc))}[/]")
    for bucket in buckets(config.timeline):
        members = [s for s in shown if bucket_of(s.age_days, config.timeline) == bucket]
        if members:
            out.print(f"\n[bold]{bucket}[/]")
        for s in members:
            flag = "  [dim](superseded)[/]" if s.superseded_by else ""
            if s.candidate.copies:
                flag += f"  [dim]{_more_copies(s.candidate.copies)}[/]"
            date_note = " [dim](file date)[/]" if s.doc.date_source == "mtime" else ""
            out.print(
                f"  {_when(s.doc)}{date_note}  {_age(s, answer.as_of):<15} {s.doc.doc_type:<14} "
                f"{escape(_title(s.doc, 70))}{flag}"
            )
            out.print(f"      [dim]{escape(_where(s.doc))}[/]")


def _bound(day: date, open_end: date) -> str:
    """A range's end as printed; an open end ("before 2020", "after June") as nothing."""
    return "" if day == open_end else day.isoformat()


def _print_explain(answer) -> None:
    t = answer.time
    out.print(f"\n[bold]pattern[/] {answer.intent.pattern}: {escape(answer.intent.reason)}")
    resolved = ", ".join(
        part
        for part in (
            f"day {t.day}" if t.day else "",
            f"range {_bound(t.range[0], date.min)}..{_bound(t.range[1], date.max)}" if t.range else "",
            f"order {t.order}" if t.order else "",
        )
        if part
    )
    out.print(f"[bold]time[/] as of {answer.as_of}; {resolved or 'no time words'}"
              + (f" (from {escape(', '.join(t.phrases))})" if t.phrases else ""), markup=True)
    out.print(f"[bold]scores[/] relevance (semantic, coverage, ids; evidence from {answer.floor:.2f}) | "
              "rank (fused with BM25) -> its share of the best ^ exponent x decay x weight x cutoff x time = score")
    for s in answer.results:
        c = s.candidate
        out.print(
            f"  {c.relevance:.3f} ({c.semantic:.2f}, {c.lexical:.2f}, {len(c.identifiers)}) | {s.rank:.3f} "
            f"(bm25 {c.bm25:.1f}) -> {s.share:.2f} x {s.decay:.2f} x {s.source_weight:.2f} x {s.cutoff:.2f} x {s.time_factor:.2f}"
            f"{' x superseded' if s.superseded_by else ''} = {s.score:.3f}  {_title(s.doc, 50)}"
            f"{'  (text read by OCR)' if s.doc.ocr else ''}",
            markup=False,
        )


def print_context(answer, config, budget: int) -> None:
    """Evidence as plain text for a language model: buckets, chronological, within a budget."""
    from brainq.ask import bucket_of, buckets

    # ~0.75 words per token; trim least relevant first. The most relevant is cut to the budget
    # when it alone exceeds it, rather than printed whole.
    room = int(budget * 0.75) - len(answer.question.split()) - 4
    keep = []  # (source, its bucket, its label, the text it prints), best first
    for s in sorted(answer.evidence, key=lambda s: s.score, reverse=True):
        when = _when(s.doc) + (" (file date)" if s.doc.date_source == "mtime" else "")
        label = f"[{when} · {s.doc.doc_type} · {_title(s.doc)} · {_where(s.doc)}]"
        bucket = bucket_of(s.age_days, config.timeline)
        words = s.candidate.text.split("\n", 1)[-1].split()
        heading = 0 if any(bucket == kept[1] for kept in keep) else len(bucket.split()) + 1
        needed = len(label.split()) + len(words) + heading
        if needed > room:
            if not keep:  # the best alone is over the budget: cut, with an " …" at each cut end
                keep.append((s, bucket, label, _cut(words, s.candidate.sentence, max(room - needed + len(words) - 2, 1))))
            break
        keep.append((s, bucket, label, " ".join(words)))
        room -= needed
    sys.stdout.write(f"Question: {answer.question}\nToday: {answer.as_of}\n")
    if not keep:  # a model told nothing would answer from what it knows; say that nothing was found
        sys.stdout.write(f"\n{answer.verdict.reason}.\n")
    for bucket in buckets(config.timeline):
        members = [kept for kept in keep if kept[1] == bucket]
        if not members:
            continue
        sys.stdout.write(f"\n## {bucket}\n")
        for s, _, label, body in sorted(members, key=lambda kept: kept[0].doc.source_date.isoformat() if kept[0].doc.source_date else ""):
            sys.stdout.write(f"{label}\n{body}\n")


def _cut(words: list[str], sentence: str | None, n: int) -> str:
    """`n` of a source's words, from its answering sentence on where that is among them: the
    text's opening may be a heading or another matter, and the answer would be cut away."""
    opening = (sentence or "").split()[:3]
    start = next((i for i in range(len(words)) if opening and words[i : i + len(opening)] == opening), 0)
    start = max(0, min(start, len(words) - n))
    return ("… " if start else "") + " ".join(words[start : start + n]) + (" …" if start + n < len(words) else "")


def print_eval(report, show_failures: bool) -> None:
    from brainq.evaluate import METRICS

    names = {"brainq": "brainq", "bm25": "BM25 alone", "dense": "dense alone", "fusion": "BM25 + dense, fused (RRF)"}
    tables = [(names[n], report.table(n)) for n in ("brainq", *report.baselines)]
    metrics = [m for m in METRICS if any(row[m] is not None for _, t in tables for row in t.values())]
    for name, table in tables:
        out.print(f"\n[bold]{name}[/]")
        out.print(f"  {'pattern':<12} {'n':>4}  " + "  ".join(f"{m:>14}" for m in metrics))
        for pattern, row in table.items():
            cells = "  ".join(f"{row[m]:>14.3f}" if row[m] is not None else f"{'-':>14}" for m in metrics)
            out.print(f"  {pattern:<12} {row['questions']:>4}  {cells}", markup=False)
    if any(o.question.group for o in report.outcomes):
        out.print("\n[bold]by group[/] (precision@1 / hit@5)")
        groups = {n: report.table(n, by="group") for n in ("brainq", *report.baselines)}
        out.print("  " + f"{'group':<16}" + "".join(f"{n:>16}" for n in groups))
        for group in groups["brainq"]:
            cells = "".join(f"{t[group]['precision@1']:>8.3f}{t[group]['hit@5']:>8.3f}" for t in groups.values())
            out.print(f"  {group:<16}{cells}", markup=False)
    r = report.reliability()
    out.print("\n[bold]reliability[/] (how often the first source was right, per verdict)")
    for level in ("answer", "verify", "unknown"):
        out.print(f"  {level:<8} {r[level]['given']:>4} given, first source right {_share(r[level]['first_source_right'])}")
    out.print(
        f"  confidently wrong: {r['confidently_wrong']} ({_share(r['confidently_wrong_share'])} of all questions, "
        f"{_share(r['wrong_among_answers'])} of answers); answerable questions answered: {_share(r['answered_of_answerable'])}",
        markup=False,
    )
    if show_failures:
        out.print("\n[bold]misses[/]")
        for o in report.failures():
            got = ", ".join(shown(p.rsplit("/", 1)[-1]) for p in o.paths[:3]) or "nothing"
            want = ", ".join(shown(p.rsplit("/", 1)[-1]) for p in o.question.expect) or "nothing"
            out.print(
                f"  {escape(o.question.question)}\n    pattern {o.pattern} (want {o.question.pattern}), "
                f"verdict {o.verdict} (want {o.question.verdict}); got {escape(got)}; want {escape(want)}"
            )
