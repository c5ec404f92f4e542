// Package llm talks to language models. Provider is the one interface every
// adapter satisfies: anthropic (the Messages API) and openai (Chat
// Completions, which every OpenAI-compatible server speaks — Ollama, vLLM,
// llama.cpp, LM Studio, Azure), both spoken by a small wire layer of its
// own on net/http with SSE streaming: two HTTP endpoints do not need two
// vendor SDKs (they were three quarters of the binary and of a cold
// build). Retry with backoff and Retry-After, and fallback across models, wrap
// providers here so that every adapter behaves the same. Tool calling
// (Request.Tools, Response.ToolCalls, Message.ToolResults) is one shape
// over both wire formats, streaming or not. Embedder reaches the
// embeddings endpoints of the OpenAI-type adapters (Ollama's own
// /api/embed for an ollama provider), for similarity checks.
//
// It knows nothing of chains or steps. It may import, of this module:
// fsutil, redact, retry.
package llm
