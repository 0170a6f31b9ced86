"""The gateways every app uses, at the bottom of the layers: the model (``gateways.llm``), the
embedder (``gateways.embeddings``), the shapes the apps' form pages share (``gateways.pages``), text
out of uploaded files (``gateways.file_text``) and the limited child process that reads them
(``gateways.untrusted``). Nothing here imports an app or the site's wiring (``faultline``)."""
