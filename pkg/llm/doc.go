// Package llm talks to language models. Provider is the one interface every
// adapter satisfies: anthropic (the Messages API) and openai (Chat
// Completions, which every OpenAI-compatible server speaks — Ollama, vLLM,
// llama.cpp, LM Studio), both on the official SDKs with their own retries
// off. Retry with backoff and Retry-After, and fallback across models, wrap
// providers here so that every adapter behaves the same. Tool calling
// (Request.Tools, Response.ToolCalls, Message.ToolResults) is one shape
// over both wire formats, streaming or not.
//
// It knows nothing of chains or steps. It may import, of this module:
// retry.
package llm
