/**
 * Review signals, without I/O beyond reading rule files: things a reviewer should look at, recorded
 * with the audit. The detectors are plain classes; only {@code ReviewConfiguration} knows Spring, building
 * them once from {@link com.sandboxgateway.review.ReviewProperties} ({@code gateway.review}). Uploads
 * ({@code sanitize/}) and executed code ({@code audit/}) call them; whether a finding blocks is policy
 * ({@code gateway.policy.org.injection.action}), not theirs.
 *
 * <ul>
 *   <li>{@link com.sandboxgateway.review.InjectionDetector} finds instruction-like text planted in
 *       uploaded data (CSV cells, JSON Lines string values) with the rules of
 *       {@link com.sandboxgateway.review.InjectionRules}; a match names rule and category, never the text.</li>
 *   <li>{@link com.sandboxgateway.review.CodeRiskAnalyzer} takes a static look at each executed Python
 *       block with the rules of {@link com.sandboxgateway.review.CodeRules} and returns
 *       {@link com.sandboxgateway.review.CodeFlag}s; HTTP targets are checked against a
 *       {@link com.sandboxgateway.review.HostPolicy}; {@code analyzeShell} does the same for the commands of a
 *       hosted {@code shell} call (a small shell lexer, the same flag names).</li>
 *   <li>{@link com.sandboxgateway.review.CallOutcome} tells whether a {@code code_interpreter_call}
 *       failed, for counting failures in a row.</li>
 * </ul>
 *
 * <p>Both rule sets are YAML files ({@code review/injection-rules.yml}, {@code review/code-rules.yml}),
 * mergeable with an operator's file; {@code review/README.md} describes the format. A bad file fails
 * at load time with an {@link com.sandboxgateway.review.InvalidRulesException} naming the rule.
 */
package com.sandboxgateway.review;
