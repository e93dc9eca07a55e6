"""brainq: a personal document brain that answers from the freshest evidence it has."""

import os

__version__ = "0.1.0"

# A personal brain makes no network calls. These must be set before chromadb (and through it
# onnxruntime) is imported anywhere, so they live at the top of the package.
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")  # chromadb and the MCP SDK carry OpenTelemetry
