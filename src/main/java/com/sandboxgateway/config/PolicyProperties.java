package com.sandboxgateway.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import com.sandboxgateway.api.InvalidSettingException;
import com.sandboxgateway.api.Setting;

/**
 * The organisation's rules ({@code gateway.policy.org}), which teams may only narrow
 * ({@code gateway.policy.teams.<team>}). Each org record refuses a value that makes no sense in its compact
 * constructor; whether a team's setting narrows the org's is checked by {@link TeamPolicies}, which knows both.
 *
 * @param org the organisation-wide policy, the ceiling for every team
 * @param teams per-team narrowing; a team not listed gets the org policy
 */
@ConfigurationProperties("gateway.policy")
public record PolicyProperties(@DefaultValue Org org, @DefaultValue Map<String, Team> teams) {

    /**
     * @param files limits and expiry of uploaded files
     * @param sanitization how data files are cleaned before they leave the company
     * @param network which domains a container may reach
     * @param containers memory tiers and idle expiry of containers
     * @param tools which tool types a request may use
     * @param rateLimit requests per minute per user and per team
     * @param turns executed code blocks per session and per user and day
     * @param spend the daily spend cap of each team
     * @param injection what to do with uploaded data that holds instructions aimed at a model
     * @param unknownInput an input item, content part or tool type the gateway does not govern:
     *        {@code refuse} ({@code unsupported_input}, the default) or {@code allow} (forwarded unchecked,
     *        and its audit record flagged {@code ungoverned_input})
     * @param skills which skills a container may be given
     */
    public record Org(@DefaultValue Files files, @DefaultValue Sanitization sanitization, @DefaultValue Network network,
                      @DefaultValue Containers containers, @DefaultValue Tools tools, @DefaultValue Secrets secrets,
                      @DefaultValue Pii pii, @DefaultValue RateLimit rateLimit, @DefaultValue Turns turns,
                      @DefaultValue Spend spend, @DefaultValue Injection injection,
                      @DefaultValue("refuse") UnknownInput unknownInput, @DefaultValue Skills skills) {
    }

    /**
     * Skills: bundles of instructions and code unpacked into a container ({@code skills} of
     * {@code POST /v1/containers} and of a shell tool's {@code container_auto}). Every bundle, uploaded or
     * inline, is read by the gateway before it leaves.
     *
     * @param allowed skill ids anyone may reference, though no one created them through the gateway
     *        (e.g. the org's shared skills); any other {@code skill_reference} must name the caller's own skill
     * @param allowUploaded whether skills may be created through {@code /v1/skills} and referenced by their owner
     * @param allowInline whether a request may carry a skill inline ({@code type: inline}, a base64 zip)
     */
    public record Skills(@DefaultValue List<String> allowed, @DefaultValue("true") boolean allowUploaded,
                         @DefaultValue("true") boolean allowInline) {
    }

    /**
     * @param allowed a subset of the org's listed skill ids
     * @param allowUploaded {@code false} narrows; {@code true} only where the org allows it
     * @param allowInline {@code false} narrows; {@code true} only where the org allows it
     */
    public record TeamSkills(List<String> allowed, Boolean allowUploaded, Boolean allowInline) {
    }

    /** What to do with a part of a request the gateway does not govern. */
    public enum UnknownInput { REFUSE, ALLOW }

    /**
     * Token buckets: each user gets {@code requests-per-minute}, refilled continuously, and may spend up
     * to {@code burst} at once; each team as a whole gets {@code team-requests-per-minute}.
     *
     * @param requestsPerMinute the sustained rate of one user
     * @param burst how many requests one user may send at once (the bucket's capacity); the default lets a
     *        plain sequential script run without meeting the limit
     * @param teamRequestsPerMinute the sustained rate, and the capacity, of a whole team
     */
    public record RateLimit(@DefaultValue("120") int requestsPerMinute, @DefaultValue("60") int burst,
                            @DefaultValue("1200") int teamRequestsPerMinute) {

        private static final String STOP_INSTEAD = "Set it to 1 or more; to stop a kind of request, narrow the tools or memory tiers instead.";

        public RateLimit {
            Setting.atLeast(1, requestsPerMinute, "gateway.policy.org.rate-limit.requests-per-minute", STOP_INSTEAD);
            Setting.atLeast(1, burst, "gateway.policy.org.rate-limit.burst", STOP_INSTEAD);
            Setting.atLeast(1, teamRequestsPerMinute, "gateway.policy.org.rate-limit.team-requests-per-minute", STOP_INSTEAD);
        }
    }

    /**
     * A turn is one {@code code_interpreter_call} executed upstream.
     *
     * @param maxPerSession turns one session may execute in all
     * @param maxPerUserPerDay turns one user may execute per day (UTC)
     * @param stopRunawaySessions whether a runaway session (more failed code blocks in a row than
     *        {@code gateway.review.failure-streak}, the one definition, which flags its block {@code runaway_session})
     *        is stopped: new responses in it are refused ({@code turn_budget_exhausted})
     * @param stopAfterFailures the former, second threshold for stopping a session; refused at start, naming its
     *        replacement, so a configuration that relied on it does not lose its stop silently
     */
    public record Turns(@DefaultValue("20") int maxPerSession, @DefaultValue("500") int maxPerUserPerDay,
                        @DefaultValue("false") boolean stopRunawaySessions, Integer stopAfterFailures) {

        public Turns {
            Setting.atLeast(1, maxPerSession, "gateway.policy.org.turns.max-per-session", RateLimit.STOP_INSTEAD);
            Setting.atLeast(1, maxPerUserPerDay, "gateway.policy.org.turns.max-per-user-per-day", RateLimit.STOP_INSTEAD);
            if (stopAfterFailures != null) {
                throw new InvalidSettingException("gateway.policy.org.turns.stop-after-failures", stopAfterFailures.toString(),
                        "a runaway session is now defined once, by gateway.review.failure-streak",
                        "To stop a session once N code blocks in a row failed, set gateway.review.failure-streak to N - 1 "
                                + "and gateway.policy.org.turns.stop-runaway-sessions to true.");
            }
        }
    }

    /**
     * Text in uploaded data (CSV/TSV cells, JSON Lines string values, text files, inline
     * {@code input_file.file_data}) that reads like an instruction aimed at a model.
     *
     * @param action {@code report}: send the file, flag its audit record and answer {@code X-Gateway-Flags};
     *        {@code block}: refuse it ({@code instruction_in_data}) naming line and column
     */
    public record Injection(@DefaultValue("report") InjectionAction action) {
    }

    /** What to do with instructions found in uploaded data. */
    public enum InjectionAction { REPORT, BLOCK }

    /** @param maxUsdPerTeamPerDay estimated spend after which a team's paid requests are refused until midnight UTC */
    public record Spend(@DefaultValue("50") BigDecimal maxUsdPerTeamPerDay) {

        public Spend {
            if (maxUsdPerTeamPerDay == null || maxUsdPerTeamPerDay.signum() < 0) {
                throw new InvalidSettingException("gateway.policy.org.spend.max-usd-per-team-per-day",
                        maxUsdPerTeamPerDay == null ? null : maxUsdPerTeamPerDay.toPlainString(), "a spend cap must be zero or more",
                        "Set a cap in USD of zero (no paid requests) or more.");
            }
        }
    }

    /**
     * @param action {@code block}: refuse a request or file holding a credential ({@code secret_detected});
     *        {@code redact}: replace it by {@code [REDACTED:<rule>]} and go on
     */
    public record Secrets(@DefaultValue("block") SecretsAction action) {
    }

    /** What to do with a credential found in a prompt or a file. */
    public enum SecretsAction { BLOCK, REDACT }

    /**
     * @param action for personal data in free text (prompts, and file columns no drop or pseudonymize
     *        rule covers): {@code report} (audit only), {@code pseudonymize} (replace by a keyed pseudonym)
     *        or {@code block} ({@code pii_detected})
     */
    public record Pii(@DefaultValue("report") PiiAction action) {
    }

    /** What to do with personal data found in free text. */
    public enum PiiAction { REPORT, PSEUDONYMIZE, BLOCK }

    /**
     * @param maxUploadSize largest file accepted; larger uploads are refused while they stream
     * @param defaultExpiry {@code expires_after} given to every upload that sets none
     * @param maxExpiry a longer requested expiry is cut to this (OpenAI accepts 1 hour to 30 days)
     * @param deleteAfterUse delete the files a response used once it completes
     * @param opaqueExtensions types that cannot hold a table, passed unchanged (still size-capped) when their
     *        bytes are not in fact text, a table or an archive; the content of a file decides how it is read,
     *        its name is a hint
     * @param archives what happens to a {@code .zip} upload: its entries sanitized one by one with the same
     *        rules, or the archive refused
     * @param allowMacroWorkbooks accept macro-enabled workbooks ({@code .xlsm}); their sheets are sanitized
     *        and the macros are not sent on. Off: refused, since macros are code
     * @param maxExpandedSize the most a compressed file, archive or workbook may expand to, all its parts together
     * @param maxArchiveEntries the most entries a zip archive or workbook may hold
     * @param maxExpansionRatio the most an entry of an archive or workbook may expand, as a multiple of its
     *        compressed size (zip bombs expand thousands of times)
     * @param fileUrls which {@code input_file.file_url} the gateway fetches itself (any other is refused)
     */
    public record Files(@DefaultValue("100MB") DataSize maxUploadSize, @DefaultValue("1h") Duration defaultExpiry,
                        @DefaultValue("7d") Duration maxExpiry, boolean deleteAfterUse,
                        @DefaultValue({"txt", "md", "pdf", "png", "jpg"}) List<String> opaqueExtensions,
                        @DefaultValue("sanitize") ArchivePolicy archives, boolean allowMacroWorkbooks,
                        @DefaultValue("1GB") DataSize maxExpandedSize, @DefaultValue("10000") int maxArchiveEntries,
                        @DefaultValue("100") int maxExpansionRatio, @DefaultValue FileUrls fileUrls) {

        public Files {
            String prefix = "gateway.policy.org.files.";
            Setting.positive(maxUploadSize, prefix + "max-upload-size", "Set the largest file accepted, e.g. 100MB.");
            Setting.positive(defaultExpiry, prefix + "default-expiry", "Set the expiry of an upload that sets none, e.g. 1h.");
            Setting.positive(maxExpiry, prefix + "max-expiry", "Set the longest expiry an upload may ask for, e.g. 7d.");
            Setting.positive(maxExpandedSize, prefix + "max-expanded-size",
                    "Set the most an archive or workbook may expand to, e.g. 1GB.");
            Setting.atLeast(1, maxArchiveEntries, prefix + "max-archive-entries",
                    "Set the most entries an archive or workbook may hold, e.g. 10000; archives: refuse refuses zip uploads.");
            Setting.atLeast(1, maxExpansionRatio, prefix + "max-expansion-ratio",
                    "Set how many times its compressed size an entry may expand, e.g. 100.");
        }
    }

    /**
     * {@code input_file.file_url} would have OpenAI download the file, unsanitized; the gateway instead
     * fetches it from a listed host, sanitizes it like an upload and sends it as {@code file_data}.
     *
     * @param fetchFrom hosts the gateway may fetch from: {@code files.example.com} (https, port 443),
     *        {@code files.example.com:8443}, or {@code http://host:port} to allow plain http. A host that
     *        resolves to a private, loopback or link-local address is refused unless the entry is that
     *        address itself ({@code http://127.0.0.1:8089})
     * @param connectTimeout how long to wait for the connection
     * @param readTimeout how long the host may stay silent while sending
     */
    public record FileUrls(@DefaultValue List<String> fetchFrom, @DefaultValue("5s") Duration connectTimeout,
                           @DefaultValue("30s") Duration readTimeout) {

        public FileUrls {
            Setting.positive(connectTimeout, "gateway.policy.org.files.file-urls.connect-timeout",
                    "Set how long to wait for the connection, e.g. 5s.");
            Setting.positive(readTimeout, "gateway.policy.org.files.file-urls.read-timeout",
                    "Set how long a host may stay silent while sending, e.g. 30s.");
        }
    }

    /** What happens to a zip archive upload. */
    public enum ArchivePolicy { SANITIZE, REFUSE }

    /**
     * @param allowedDomains domains a container's {@code network_policy} may open; {@code *.example.com}
     *        admits the subdomains of example.com. Empty: no container may open the network
     */
    public record Network(@DefaultValue List<String> allowedDomains) {

        public Network {
            DomainName.parseAll(allowedDomains, "gateway.policy.org.network.allowed-domains");
        }
    }

    /**
     * @param allowedMemoryLimits memory tiers a container may use ({@code 1g}, {@code 4g}, {@code 16g}, {@code 64g})
     * @param maxIdleMinutes a container's {@code expires_after} is cut to this many idle minutes
     */
    public record Containers(@DefaultValue({"1g", "4g"}) List<String> allowedMemoryLimits,
                             @DefaultValue("20") int maxIdleMinutes) {

        /** OpenAI's container memory tiers. */
        private static final Set<String> MEMORY_TIERS = Set.of("1g", "4g", "16g", "64g");

        public Containers {
            requireTiers(allowedMemoryLimits, "gateway.policy.org.containers.allowed-memory-limits");
            Setting.atLeast(1, maxIdleMinutes, "gateway.policy.org.containers.max-idle-minutes",
                    "Set how many idle minutes a container may last, e.g. 20.");
        }

        /** The tiers listed under {@code key}, refused when one is not among OpenAI's. */
        static Set<String> requireTiers(List<String> tiers, String key) {
            for (String tier : tiers) {
                if (!MEMORY_TIERS.contains(tier)) {
                    throw new InvalidSettingException(key, tier, "it is not one of OpenAI's container memory tiers",
                            "List tiers among 1g, 4g, 16g and 64g.");
                }
            }
            return Set.copyOf(tiers);
        }
    }

    /** @param allowed tool types a request may declare */
    public record Tools(@DefaultValue({"code_interpreter", "function"}) List<String> allowed) {
    }

    /**
     * A team's narrowing of the org policy; every part is optional (absent: the org's).
     */
    public record Team(TeamNetwork network, TeamContainers containers, Tools tools, TeamRateLimit rateLimit,
                       TeamTurns turns, TeamSpend spend, TeamSkills skills) {
    }

    /** Each at most the org's. */
    public record TeamRateLimit(Integer requestsPerMinute, Integer burst, Integer teamRequestsPerMinute) {
    }

    /** Each at most the org's. */
    public record TeamTurns(Integer maxPerSession, Integer maxPerUserPerDay) {
    }

    /** @param maxUsdPerTeamPerDay at most the org's */
    public record TeamSpend(BigDecimal maxUsdPerTeamPerDay) {
    }

    /** @param allowedDomains a subset of the org's domains */
    public record TeamNetwork(List<String> allowedDomains) {
    }

    /**
     * @param allowedMemoryLimits a subset of the org's tiers
     * @param maxIdleMinutes at most the org's
     */
    public record TeamContainers(List<String> allowedMemoryLimits, Integer maxIdleMinutes) {
    }

    /**
     * @param pseudonymizationKey the HMAC key for pseudonyms, or {@code file:/path} to read it from a
     *        file; required when {@code pseudonymize-columns} is set. Never logged
     * @param dropColumns columns removed from every data file, matched ignoring case and whitespace
     * @param pseudonymizeColumns columns whose values are replaced by a keyed pseudonym
     * @param neutralizeFormulas prefix cells a spreadsheet would run as a formula
     * @param profiles named dataset profiles an upload can be held to with
     *        {@code X-Gateway-Dataset-Profile}
     */
    public record Sanitization(String pseudonymizationKey, @DefaultValue List<String> dropColumns,
                               @DefaultValue List<String> pseudonymizeColumns,
                               @DefaultValue("true") boolean neutralizeFormulas,
                               @DefaultValue Map<String, Profile> profiles) {
    }

    /** @param requiredColumns columns an upload held to this profile must have */
    public record Profile(@DefaultValue List<String> requiredColumns) {
    }
}
