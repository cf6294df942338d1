package com.sandboxgateway.review;

import java.util.List;
import java.util.Objects;

/**
 * A static look at each Python code block the sandbox executed: does it read environment variables or
 * credential files, run shell commands, open sockets or HTTP connections (and to which host, allowed or
 * not), install packages, touch files outside {@code /mnt/data}, write huge amounts, or execute text it
 * downloaded or decoded? The answer is a list of {@link CodeFlag}s for the audit record and the
 * reviewers; it is a review signal, not a sandbox: code can always hide what it does from a static look.
 *
 * <p>The code is tokenized first (a small Python tokenizer that also knows IPython's {@code !cmd} and
 * {@code %magic} syntax), so a comment such as {@code # os.environ} or a string such as
 * {@code print("os.environ")} raises nothing, while {@code f"{os.environ['HOME']}"} does. Every
 * statement counts however it is laid out ({@code import os; print(os.environ)},
 * {@code if x: os.system(c)}), and literal code given to {@code exec}, {@code eval} or {@code compile}
 * is reviewed as code. Which names, commands, paths and patterns raise which flag is data: see
 * {@link CodeRules}. Immutable and thread-safe.
 */
public final class CodeRiskAnalyzer {

    private static final int DEFAULT_MAX_FLAGS = 32;
    private static final int DEFAULT_MAX_DETAILS_PER_FLAG = 8;

    private final CodeRules rules;
    private final ShellReview shell;
    private final int maxFlags;
    private final int maxDetailsPerFlag;

    private CodeRiskAnalyzer(CodeRules rules) {
        this.rules = rules;
        this.shell = new ShellReview(rules);
        this.maxFlags = rules.limits().maxFlags() > 0 ? rules.limits().maxFlags() : DEFAULT_MAX_FLAGS;
        this.maxDetailsPerFlag = rules.limits().maxDetailsPerFlag() > 0 ? rules.limits().maxDetailsPerFlag() : DEFAULT_MAX_DETAILS_PER_FLAG;
    }

    /** An analyzer applying {@code rules}. */
    public static CodeRiskAnalyzer fromRules(CodeRules rules) {
        return new CodeRiskAnalyzer(Objects.requireNonNull(rules, "rules"));
    }

    /**
     * The flags {@code code} raises, sorted by flag and detail, without duplicates, at most the rule
     * file's {@code limits} (32 flags, 8 details per flag by default).
     *
     * @param hosts which hosts the session may reach, to tell allowed HTTP targets from others;
     *              {@code null} means the network is disabled
     */
    public List<CodeFlag> analyze(String code, HostPolicy hosts) {
        Objects.requireNonNull(code, "code");
        ReportedFlags found = new ReportedFlags(hosts == null ? HostPolicy.networkDisabled() : hosts);
        BlockReview review = new BlockReview(PythonLexer.lex(code), rules);
        for (FlagRule flag : rules.flags()) {
            review.check(flag, found);
        }
        return found.toList(maxFlags, maxDetailsPerFlag);
    }

    /**
     * The flags the commands of a hosted {@code shell} call raise ({@link ShellReview}), with the same names,
     * order and limits as {@link #analyze}.
     *
     * @param hosts as for {@link #analyze}
     */
    public List<CodeFlag> analyzeShell(List<String> commands, HostPolicy hosts) {
        ReportedFlags found = new ReportedFlags(hosts == null ? HostPolicy.networkDisabled() : hosts);
        shell.review(List.copyOf(commands), found);
        return found.toList(maxFlags, maxDetailsPerFlag);
    }
}
