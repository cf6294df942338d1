/**
 * Traces of every request (OpenTelemetry through Micrometer Tracing, OTLP export, off by default): the
 * request span carries the gateway's facts (team, route, session, refusal code, turns), each policy step that
 * did work gets a child span, and the call to OpenAI is a client span with the GenAI semantic conventions'
 * attributes and a child per executed code block. Hooks sit in the chain runner and the proxy, never in a step.
 */
package com.sandboxgateway.tracing;
