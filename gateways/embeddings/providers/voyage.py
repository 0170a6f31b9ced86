"""Voyage AI through its official client. Retries (rate limits, unavailability, timeouts) are the
client's own, configured in settings; nothing here retries on top of them."""

from __future__ import annotations

from django.conf import settings

from gateways.embeddings.types import DIMENSIONS, ProviderEmbeddings, Purpose


class VoyageProvider:
    name = "voyage"

    def __init__(self) -> None:
        import voyageai  # imported here: the offline path never pays for its import

        self.model = settings.VOYAGE_EMBED_MODEL
        self.client = voyageai.Client(
            api_key=settings.VOYAGE_API_KEY or "missing-key",
            max_retries=settings.VOYAGE_MAX_RETRIES,
            timeout=30,
            base_url=settings.VOYAGE_BASE_URL,
        )

    def embed(self, texts: list[str], *, purpose: Purpose) -> ProviderEmbeddings:
        result = self.client.embed(
            list(texts),
            model=self.model,
            input_type="query" if purpose == Purpose.QUERY else "document",
            output_dimension=DIMENSIONS,
        )
        return ProviderEmbeddings(vectors=result.embeddings, model=self.model, tokens=result.total_tokens)
