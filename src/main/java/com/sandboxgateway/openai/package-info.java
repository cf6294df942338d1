/**
 * The OpenAI format as the gateway reads it: its names in one place ({@link com.sandboxgateway.openai.OpenAiFormat})
 * and a small typed view of each answer, parsed once by the relay ({@link com.sandboxgateway.openai.Answer}).
 * It reads; it never changes what the client receives.
 */
package com.sandboxgateway.openai;
