package com.sandboxgateway.secrets;

import static com.sandboxgateway.secrets.TextTraits.DASH;
import static com.sandboxgateway.secrets.TextTraits.DOT;
import static com.sandboxgateway.secrets.TextTraits.LOWER;
import static com.sandboxgateway.secrets.TextTraits.SLASH;
import static com.sandboxgateway.secrets.TextTraits.UNDERSCORE;
import static com.sandboxgateway.secrets.TextTraits.UPPER;

import java.util.List;

/**
 * The vendor credentials recognized by prefix, each with the format it follows. Formats are those
 * the vendors document and that gitleaks' rules encode; the shapes here are written for this scanner.
 */
final class VendorTokens {

    private VendorTokens() {
    }

    static List<Rule> all() {
        return List.of(openAi(), awsAccessKeyId(), gitHub(), gitHubFineGrained(), slack(), slackWebhook(), stripe(), google());
    }

    /**
     * OpenAI API keys: project, service-account and admin keys ({@code sk-proj-}, {@code sk-svcacct-},
     * {@code sk-admin-}, and {@code sk-None-} for keys without a project) followed by a long base64url
     * body; legacy user keys are {@code sk-} + 20 alphanumerics + {@code T3BlbkFJ} (base64 of
     * {@code OpenAI}) + 20 alphanumerics. {@code sk-learn} and other short {@code sk-} words are far too short.
     */
    static Rule openAi() {
        return new TokenRule("openai-api-key", "sk-", new String[] {"sk-"},
                "sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{32,300}+|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})",
                320, CharClass.BASE64URL, Randomness::looksRandom, Trigger.token(40, LOWER | DASH));
    }

    /**
     * AWS access key ids: a four-letter type prefix ({@code AKIA} long-term, {@code ASIA} temporary STS,
     * {@code ABIA} STS service bearer, {@code ACCA} context-specific) and 16 upper-case alphanumerics.
     * AWS's documentation key {@code AKIAIOSFODNN7EXAMPLE} is a placeholder, not a finding.
     */
    static Rule awsAccessKeyId() {
        return new TokenRule("aws-access-key-id", "A", new String[] {"AKIA", "ASIA", "ABIA", "ACCA"},
                "A[A-Z]{3}[A-Z0-9]{16}", 20, CharClass.ALNUM, Randomness::looksRandom, Trigger.token(20, UPPER));
    }

    /**
     * GitHub tokens: {@code ghp_} (personal), {@code gho_} (OAuth), {@code ghu_} (user-to-server),
     * {@code ghs_} (server-to-server), {@code ghr_} (refresh) + 36 alphanumerics.
     */
    static Rule gitHub() {
        return new TokenRule("github-token", "gh", new String[] {"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
                "gh[pousr]_[A-Za-z0-9]{36}", 40, CharClass.WORD, Randomness::looksRandom, Trigger.token(40, LOWER | UNDERSCORE));
    }

    /** GitHub fine-grained personal access tokens: {@code github_pat_} + 82 word characters (22, an underscore, 59). */
    static Rule gitHubFineGrained() {
        return new TokenRule("github-token", "github_pat_", new String[] {"github_pat_"}, "github_pat_[A-Za-z0-9_]{82}", 93,
                CharClass.WORD, Randomness::looksRandom, Trigger.token(93, LOWER | UNDERSCORE));
    }

    /**
     * Slack tokens: {@code xoxb-} (bot), {@code xoxp-} (user), {@code xoxa-}/{@code xoxr-} (app and
     * refresh), {@code xoxs-}/{@code xoxo-} (legacy session), {@code xoxe-} (rotating); the body is dash-separated
     * numeric ids and a random secret, e.g. {@code xoxb-<10-13 digits>-<10-13 digits>-<24 alnum>}.
     */
    static Rule slack() {
        return new TokenRule("slack-token", "xox", new String[] {"xox"}, "xox[abeoprs]-[A-Za-z0-9-]{16,250}+", 255,
                CharClass.BASE64URL, VendorTokens::slackBody, new Trigger(21, 1, 21, LOWER | DASH, 0));
    }

    /**
     * Slack incoming webhooks, {@code https://hooks.slack.com/services/T…/B…/<24 alnum>} (and the
     * {@code workflows}/{@code triggers} forms): anyone holding the URL can post to the channel.
     */
    static Rule slackWebhook() {
        return new TokenRule("slack-token", "hooks.slack.com/", new String[] {"hooks.slack.com/"},
                "hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,200}+", 240,
                CharClass.of("A-Za-z0-9_.-"), VendorTokens::slackBody, new Trigger(45, 0, 30, LOWER | DOT | SLASH, 0));
    }

    /**
     * Stripe secret and restricted keys, live and test: {@code sk_live_}, {@code rk_live_},
     * {@code sk_test_}, {@code rk_test_} + 24 to 247 alphanumerics. Publishable keys ({@code pk_}) are
     * meant to be public and are not findings.
     */
    static Rule stripe() {
        return new TokenRule("stripe-key", "k_", new String[] {"sk_live_", "rk_live_", "sk_test_", "rk_test_"},
                "[rs]k_(?:live|test)_[A-Za-z0-9]{16,247}+", 255, CharClass.WORD, Randomness::looksRandom,
                Trigger.token(24, LOWER | UNDERSCORE));
    }

    /** Google API keys: {@code AIza} + 35 base64url characters. */
    static Rule google() {
        return new TokenRule("google-api-key", "AIza", new String[] {"AIza"}, "AIza[A-Za-z0-9_-]{35}", 39,
                CharClass.BASE64URL, Randomness::looksRandom, Trigger.token(39, UPPER | LOWER));
    }

    /** Slack bodies always carry numeric ids, which placeholders such as {@code xoxb-your-bot-token} lack. */
    private static boolean slackBody(String body) {
        return body.chars().anyMatch(Character::isDigit) && Randomness.looksRandom(body);
    }
}
