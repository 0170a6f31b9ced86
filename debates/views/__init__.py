"""The debate pages, by area: accounts, setup (deck, hand, topic), the live page and its
controls, and the archive (list, replay, results, exports)."""
