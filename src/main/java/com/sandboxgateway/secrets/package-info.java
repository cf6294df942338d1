/**
 * Finding credentials and personal data in text, without Spring and without I/O.
 *
 * <p>{@link com.sandboxgateway.secrets.SecretScanner#standard()} scans one text (a prompt, an
 * instruction, a {@code domain_secrets} value, a CSV cell, a line) and returns
 * {@link com.sandboxgateway.secrets.Finding}s: rule id, kind and position, never the value.
 * {@link com.sandboxgateway.secrets.SecretScanner#redact} replaces each by {@code [REDACTED:<ruleId>]}.
 * {@link com.sandboxgateway.secrets.StreamingScan} scans a long text fed in chunks and reports stream
 * offsets and line numbers.
 *
 * <p>Rule ids, a stable contract:
 * <table>
 *   <caption>Rules in order of precedence</caption>
 *   <tr><th>id</th><th>kind</th><th>finds</th></tr>
 *   <tr><td>{@code private-key}</td><td>secret</td><td>PEM private keys, also with {@code \n}-escaped line breaks</td></tr>
 *   <tr><td>{@code jwt}</td><td>secret</td><td>signed or encrypted JWTs whose header names an {@code alg}</td></tr>
 *   <tr><td>{@code openai-api-key}</td><td>secret</td><td>{@code sk-proj-}, {@code sk-svcacct-}, {@code sk-admin-}, legacy {@code sk-…T3BlbkFJ…}</td></tr>
 *   <tr><td>{@code aws-access-key-id}</td><td>secret</td><td>{@code AKIA}, {@code ASIA}, {@code ABIA}, {@code ACCA} + 16</td></tr>
 *   <tr><td>{@code github-token}</td><td>secret</td><td>{@code ghp_}, {@code gho_}, {@code ghu_}, {@code ghs_}, {@code ghr_}, {@code github_pat_}</td></tr>
 *   <tr><td>{@code slack-token}</td><td>secret</td><td>{@code xoxb-}, {@code xoxp-}, {@code xoxa-}, … and {@code hooks.slack.com} webhooks</td></tr>
 *   <tr><td>{@code stripe-key}</td><td>secret</td><td>{@code sk_live_}, {@code rk_live_}, {@code sk_test_}, {@code rk_test_}</td></tr>
 *   <tr><td>{@code google-api-key}</td><td>secret</td><td>{@code AIza} + 35</td></tr>
 *   <tr><td>{@code aws-secret-access-key}</td><td>secret</td><td>40 base64 characters shortly after an AWS keyword or key id</td></tr>
 *   <tr><td>{@code jdbc-password}</td><td>secret</td><td>{@code password=}/{@code pwd=} in JDBC URLs, Oracle {@code user/password@}</td></tr>
 *   <tr><td>{@code url-password}</td><td>secret</td><td>the password in {@code scheme://user:password@host}</td></tr>
 *   <tr><td>{@code generic-secret-assignment}</td><td>secret</td><td>a high-entropy value assigned to a key named like a password, secret, token or API key</td></tr>
 *   <tr><td>{@code payment-card}</td><td>PII</td><td>13–19 digit card numbers with a valid Luhn check and issuer prefix</td></tr>
 *   <tr><td>{@code iban}</td><td>PII</td><td>IBANs of the registered length with a valid mod-97 check</td></tr>
 *   <tr><td>{@code us-ssn}</td><td>PII</td><td>{@code AAA-GG-SSSS} in the ranges the SSA issues</td></tr>
 *   <tr><td>{@code email}</td><td>PII</td><td>e-mail addresses</td></tr>
 *   <tr><td>{@code phone}</td><td>PII</td><td>international, North American and European national phone numbers</td></tr>
 * </table>
 */
package com.sandboxgateway.secrets;
