"""`ask`, `serve`, `mcp` and `eval`: answering questions, once or from a warm process."""

import os
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Optional

import typer

from brainq.cli.app import Settings, app, parse_day
from brainq.errors import UsageError

CONTEXT_BUDGET = 1500  # tokens of --context's text: a few sources whole, within any model's window


@app.command()
def ask(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(metavar="QUESTION", help="The question, in plain words.", show_default=False)],
    as_of: Annotated[Optional[str], typer.Option(metavar="YYYY-MM-DD", help="Answer as if today were this day [default: today].")] = None,
    pattern: Annotated[
        Optional[str], typer.Option(metavar="PATTERN", help="Force the pattern: logistical, entity or historical.")
    ] = None,
    top_k: Annotated[int, typer.Option(min=1, max=50, metavar="N", help="How many sources to show.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="Show the pattern, the time and every score factor (--json always holds them).")] = False,
    context: Annotated[bool, typer.Option("--context", help="Print the evidence as plain text for a language model.")] = False,
    budget: Annotated[
        Optional[int],
        typer.Option(
            min=50, metavar="TOKENS",
            help="Token budget for --context [default: 1500]: the least relevant sources are left out first, "
            "and the best alone over it is cut around its answering sentence.",
        ),
    ] = None,
) -> None:
    """Answer a question from the freshest relevant evidence, with a verdict and sources.

    The question is classified as logistical (freshness matters: "Is Friday a half-day?"),
    entity (precision matters: "What size is our HVAC filter?") or historical (recall
    matters: "What was the roofer's name?"), and the verdict is `answer`, `verify` (stale or
    conflicting sources, shown side by side) or `unknown`.

    Examples:

        brainq ask "Is Friday a half-day?"

        brainq ask --as-of 2026-03-12 --explain "When was Maggie's last vet visit?"

        brainq ask --context "What did the roofer say about the warranty?" | llm "answer from this"
    """
    from brainq.render import print_answer, print_context, print_json
    from brainq.serve import Request
    from brainq.serve import answer as answer_served_or_here

    if as_json and context:
        raise UsageError("--json and --context print the answer two ways: choose one")
    if budget is not None and not context:
        raise UsageError("--budget is the size of --context's text: give --context too")
    if explain and context:  # (with --json it adds nothing: the object holds every score)
        raise UsageError("--explain shows the scores beside the answer; --context prints the evidence alone")
    settings: Settings = ctx.obj
    config = settings.config()
    day = parse_day(as_of, "--as-of") or date.today()
    patterns_file = os.path.abspath(settings.patterns) if settings.patterns else None
    request = Request(question, day.isoformat(), pattern, top_k, settings.chroma_url, patterns_file)
    answer = answer_served_or_here(settings.store_dir, request, config)
    if as_json:
        print_json(answer.to_json())
    elif context:
        print_context(answer, config, budget or CONTEXT_BUDGET)
    else:
        print_answer(answer, config, explain)


@app.command()
def serve(ctx: typer.Context) -> None:
    """Keep the model and the store loaded, so `brainq ask` answers in a fraction of a second.

    Listens on a socket in the store directory (readable by you only) until stopped with
    Ctrl-C or SIGTERM. `brainq ask` uses it whenever it runs for the same store and
    --chroma-url, and answers by itself otherwise, with the same output. A backfill's writes
    are seen by the next question. Start it at login, e.g. from cron:

    \b
        @reboot /path/to/brainq serve
    """
    import signal

    from brainq.config import load_config
    from brainq.embedding import lazy_question_embed
    from brainq.serve import Server

    settings: Settings = ctx.obj
    config = settings.config()  # a bad patterns.yaml is reported now, not at the first question
    store = settings.store()
    server = Server(store, lazy_question_embed(store, config.embedding), load_config)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.warm_up()
        typer.echo(f"brainq: answering for {server.store.home} on {server.path} (Ctrl-C stops)", err=True)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()  # a socket left behind by a failed start would be tried by every ask


@app.command()
def mcp(ctx: typer.Context) -> None:
    """Serve the store to AI assistants over the Model Context Protocol (stdio), read-only.

    Tools: ask (what `ask --json` prints), search, get_document, list_documents, status. The
    store and the model stay loaded between calls. Add it to Claude Code with:

    \b
        claude mcp add brainq -- brainq mcp
    """
    from brainq.embedding import lazy_question_embed
    from brainq.mcp_server import server
    from brainq.serve import RememberedEmbed

    settings: Settings = ctx.obj
    config = settings.config()
    store = settings.store()
    server(store, config, RememberedEmbed(lazy_question_embed(store, config.embedding))).run("stdio")


@app.command("eval")
def evaluate(
    ctx: typer.Context,
    queries: Annotated[Path, typer.Argument(metavar="QUERIES", help="Questions with expected evidence (YAML).")] = Path(
        "corpus_samples/queries.yaml"
    ),
    baseline: Annotated[bool, typer.Option("--baseline", help="Also rank by BM25 alone, dense alone and their fusion, side by side.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    show_failures: Annotated[bool, typer.Option("--failures", help="List every question that missed.")] = False,
) -> None:
    """Run a question set against the current store (ingests nothing) and score brainq.

    Prints per pattern: classification accuracy, precision@1, recall@3, hit@5 and verdict
    accuracy, then how often each verdict's first source was right and how many answers were
    confidently wrong. Expected paths in the file are relative to the file's folder; a
    question without `pattern` or `verdict` is not scored on it. The file holds `as_of` (the
    day asked, YYYY-MM-DD) and `queries`, each with `question` and any of `pattern`, `expect` (a
    list), `verdict`, `as_of`, `group` and `note`; another key, a pattern not in patterns.yaml
    or an expected path to no file is refused by name, so a misspelt one cannot change the
    scores unseen.

    Example:

        brainq ingest corpus_samples/household && brainq eval corpus_samples/queries.yaml --baseline
    """
    from brainq.embedding import lazy_question_embed
    from brainq.evaluate import evaluate as run_eval
    from brainq.evaluate import load_queries
    from brainq.render import print_eval, print_json

    settings: Settings = ctx.obj
    config = settings.config()
    spec = load_queries(queries, config.patterns)
    store = settings.store()
    report = run_eval(spec, store, config, lazy_question_embed(store, config.embedding), baseline)
    if as_json:
        print_json(report.to_json())
    else:
        print_eval(report, show_failures)
