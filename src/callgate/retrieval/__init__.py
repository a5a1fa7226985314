"""Tool retrieval: find the few tools a turn needs in a catalog of hundreds or thousands.

    index = ToolIndex(catalog)                       # BM25 over compact tool cards
    index.select("convert 5 km to miles", k=6, pinned=["tool_search"], allowed=may_call)

    selector = ToolSelector(index, pinned=["tool_search"], allowed=may_call)
    tools = selector.for_messages(messages)          # per turn; the list only grows
    search = search_tool(selector)                   # lets the model load more tools

Lexical search needs `callgate[retrieval]` (bm25s, PyStemmer); dense search and hybrid
ranking need `callgate[embeddings]` and `ToolIndex(..., embedder=MiniLMEmbedder())`.
"""

from callgate.retrieval._analysis import Analyzer
from callgate.retrieval._card import Card, card_for, split_words
from callgate.retrieval._dense import DenseIndex, Embedder, MiniLMEmbedder, USEEmbedder
from callgate.retrieval._fusion import Ranking, reciprocal_rank_fusion
from callgate.retrieval._index import Hit, IndexSettings, ToolFilter, ToolIndex
from callgate.retrieval._lexical import LexicalSettings
from callgate.retrieval._policy import policy_filter
from callgate.retrieval._search_tool import search_tool
from callgate.retrieval._select import ToolSelector, select_tools
from callgate.retrieval._servers import ServerTools, gate_name, server_tools

__all__ = [
    "Analyzer",
    "Card",
    "DenseIndex",
    "Embedder",
    "Hit",
    "IndexSettings",
    "LexicalSettings",
    "MiniLMEmbedder",
    "Ranking",
    "ServerTools",
    "ToolFilter",
    "ToolIndex",
    "ToolSelector",
    "USEEmbedder",
    "card_for",
    "gate_name",
    "policy_filter",
    "reciprocal_rank_fusion",
    "search_tool",
    "select_tools",
    "server_tools",
    "split_words",
]
