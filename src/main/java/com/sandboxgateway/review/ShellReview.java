package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A static look at the commands of a hosted {@code shell} call, raising the flags of the code rules where
 * the meaning is the same: {@code env_access} (env, printenv, set, {@code /proc/<pid>/environ}, a secret-named
 * variable), {@code credential_file} (the rules' credential paths in any word), {@code http_client} and
 * {@code raw_socket} (curl, wget, nc, ssh, scp, ... with the host and whether the session may reach it),
 * {@code package_install}, {@code dynamic_exec_downloaded} ({@code curl ... | sh}, {@code eval "$(curl ...)"}),
 * {@code base64_obfuscation} ({@code base64 -d | sh}), {@code dynamic_exec} ({@code eval "$CMD"}) and
 * {@code outside_mnt_data} (a redirection, {@code tee}, {@code cp}, {@code mv}, ... writing outside the
 * rule's directories; a relative path after {@code cd /etc} in the same command is under {@code /etc}). {@code python -c} code and scripts fed to an interpreter on standard input are
 * reviewed as Python or shell. {@code subprocess} is never raised: every shell command runs a program.
 * Flags the shell model does not know ({@code large_write}, an operator's own) are matched by their
 * {@code shell} patterns over each command's text. A flag the rules disable is not raised. Immutable and
 * thread-safe; a review signal, not a sandbox.
 */
final class ShellReview {

    static final String ENV = "env_access";
    static final String HTTP = "http_client";
    static final String SOCKET = "raw_socket";
    static final String INSTALL = "package_install";
    static final String DOWNLOADED = "dynamic_exec_downloaded";
    static final String DECODED = "base64_obfuscation";
    static final String DYNAMIC = "dynamic_exec";
    static final String OUTSIDE = "outside_mnt_data";
    /** Flags the shell model raises itself; their {@code shell} patterns are for shell strings inside Python code. */
    private static final Set<String> MODELLED = Set.of(ENV, "credential_file", HTTP, SOCKET, INSTALL, DOWNLOADED, DECODED, DYNAMIC,
            OUTSIDE, "subprocess");
    private static final Pattern SECRET_NAME = Pattern.compile("[A-Z_]*(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)S?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PROC_ENVIRON = Pattern.compile("/proc/[^/\\s]+/environ\\b");
    private static final Pattern DEV_NET = Pattern.compile("/dev/(tcp|udp)/([^/\\s]+)");
    private static final Set<String> WRITERS_ALL = Set.of("tee", "touch", "mkdir", "rm", "rmdir", "truncate", "shred");
    private static final Set<String> WRITERS_LAST = Set.of("cp", "mv", "install", "ln", "rsync");
    private static final Set<String> CHANGES_DIRECTORY = Set.of("cd", "pushd");
    private static final Set<String> SSH_VALUE_OPTIONS = Set.of("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l",
            "-m", "-O", "-o", "-p", "-P", "-Q", "-R", "-S", "-W", "-w");
    /** How deep nested scripts ({@code sh -c}, {@code eval}, substitutions) are followed. */
    private static final int MAX_DEPTH = 8;

    private final CodeRules rules;
    private final Map<String, FlagRule> enabled;
    private final List<String> insideOf;

    ShellReview(CodeRules rules) {
        this.rules = rules;
        this.enabled = rules.flags().stream().collect(Collectors.toMap(FlagRule::name, Function.identity()));
        FlagRule outside = enabled.get(OUTSIDE);
        this.insideOf = outside == null ? List.of() : outside.insideOf();
    }

    /** The flags of one shell call's commands, into {@code found}. */
    void review(List<String> commands, ReportedFlags found) {
        for (String command : commands) {
            script(ShellLexer.lex(command), found, 0);
            for (FlagRule flag : rules.flags()) {
                if (!MODELLED.contains(flag.name())) {
                    flag.shell().stream().filter(pattern -> pattern.mayOccurIn(command) && pattern.pattern().matcher(command).find()).findFirst()
                            .ifPresent(pattern -> found.add(flag.name(), null));
                }
            }
        }
    }

    private void script(ShellScript script, ReportedFlags found, int depth) {
        if (depth > MAX_DEPTH) {
            return;
        }
        // Where the shell starts is not known; a relative write is judged once a cd says where it lands.
        String directory = null;
        for (List<ShellScript.Command> pipeline : script.pipelines()) {
            for (int i = 0; i < pipeline.size(); i++) {
                ShellScript.Command command = pipeline.get(i);
                for (ShellScript.Word word : command.wordsAndTargets()) {
                    word(word, found);
                    word.substitutions().forEach(inner -> script(inner, found, depth + 1));
                }
                ShellProgram program = ShellProgram.of(command);
                if (program != null) {
                    program(program, found, depth);
                    if (i > 0 && program.readsScriptFromInput()) {
                        pipedInto(pipeline.subList(0, i), found);
                    }
                }
                writes(command, program, directory, found);
                if (pipeline.size() == 1) {
                    directory = changedDirectory(program, directory);
                }
            }
        }
    }

    /**
     * Where {@code cd} or {@code pushd} leaves the script ({@code ~} without an operand), {@code null} when that
     * is not known ({@code cd -}, an expansion); other commands leave it where it was. A {@code cd} inside a
     * pipeline runs in a subshell and changes nothing.
     */
    private static String changedDirectory(ShellProgram program, String directory) {
        if (program == null || !CHANGES_DIRECTORY.contains(program.name())) {
            return directory;
        }
        List<ShellScript.Word> operands = program.operands();
        if (operands.isEmpty()) {
            return "~";
        }
        ShellScript.Word target = operands.getFirst();
        return !target.literal() || target.text().equals("-") ? null : within(directory, target.text());
    }

    /** A path as seen from {@code directory} ({@code null}: unknown, the path stays relative). */
    private static String within(String directory, String path) {
        return directory == null || path.startsWith("/") || path.startsWith("~") ? path : directory + "/" + path;
    }

    /** What any word may show: a credential file, the environment of a process, a secret-named variable, a socket path. */
    private void word(ShellScript.Word word, ReportedFlags found) {
        for (FlagRule flag : rules.flags()) {
            for (TextPattern pattern : flag.literals()) {
                Matcher matcher = pattern.mayOccurIn(word.text()) ? pattern.pattern().matcher(word.text()) : null;
                if (matcher != null && matcher.find()) {
                    flag(found, flag.name(), flag.detail() == FlagRule.Detail.FILE ? "file=" + matcher.group() : null);
                }
            }
        }
        if (PROC_ENVIRON.matcher(word.text()).find() || word.expansions().stream().anyMatch(n -> SECRET_NAME.matcher(n).matches())) {
            flag(found, ENV, null);
        }
        Matcher socket = DEV_NET.matcher(word.text());
        if (socket.find()) {
            host(found, SOCKET, HostTarget.ofUrl("tcp://" + socket.group(2)));
        }
    }

    private void program(ShellProgram program, ReportedFlags found, int depth) {
        switch (program.name()) {
            case "env", "printenv" -> flag(found, ENV, null);
            case "set" -> dumpsIf(program.args().isEmpty(), found);
            case "export" -> dumpsIf(program.args().isEmpty() || program.hasArg("-p"), found);
            case "declare", "typeset" -> dumpsIf(program.operands().isEmpty(), found);
            case "compgen" -> dumpsIf(program.hasArg("-v", "-e"), found);
            case "eval" -> evaluated(program.args(), found, depth);
            case "source", "." -> program.args().stream().limit(1).forEach(script -> executed(script, found));
            case "git" -> gitRemote(program, found);
            default -> { }
        }
        if (ShellProgram.HTTP_CLIENTS.contains(program.name())) {
            List<String> hosts = new ArrayList<>();
            for (ShellScript.Word operand : program.operands()) {
                String host = HostTarget.ofUrlOrHost(operand.text());
                if (host != null) {
                    hosts.add(host);
                }
            }
            (hosts.isEmpty() ? List.of(HostTarget.UNKNOWN) : hosts).forEach(host -> host(found, HTTP, host));
        }
        if (ShellProgram.SOCKET_CLIENTS.contains(program.name())) {
            host(found, SOCKET, socketHost(program));
        }
        if (program.installs()) {
            flag(found, INSTALL, null);
        }
        if (program.isInterpreter()) {
            interpreted(program, found, depth);
        }
    }

    private void dumpsIf(boolean dumps, ReportedFlags found) {
        if (dumps) {
            flag(found, ENV, null);
        }
    }

    /** {@code sh -c '...'}, {@code python -c '...'}, {@code bash <(curl ...)}, {@code python - <<EOF}. */
    private void interpreted(ShellProgram program, ReportedFlags found, int depth) {
        ShellScript.Word inline = program.valueOf("-c", "-e");
        if (inline != null) {
            if (inline.literal()) {
                code(program, inline.text(), found, depth);
            } else {
                executed(inline, found);
            }
        }
        program.operands().stream().filter(word -> !word.substitutions().isEmpty()).forEach(word -> executed(word, found));
        if (program.command().input() != null && program.readsScriptFromInput()) {
            code(program, program.command().input(), found, depth);
        }
    }

    private void code(ShellProgram program, String code, ReportedFlags found, int depth) {
        if (program.isShell()) {
            script(ShellLexer.lex(code), found, depth + 1);
        } else if (program.isPython()) {
            BlockReview review = new BlockReview(PythonLexer.lex(code), rules);
            rules.flags().forEach(flag -> review.check(flag, found));
        }
    }

    /** {@code eval}: literal words are reviewed as the script they form; anything computed is run unseen. */
    private void evaluated(List<ShellScript.Word> args, ReportedFlags found, int depth) {
        if (args.stream().allMatch(ShellScript.Word::literal)) {
            script(ShellLexer.lex(args.stream().map(ShellScript.Word::text).collect(Collectors.joining(" "))), found, depth + 1);
        } else {
            args.stream().filter(word -> !word.literal()).forEach(word -> executed(word, found));
        }
    }

    /** A computed word run as code: downloaded, decoded, or at least not a literal. */
    private void executed(ShellScript.Word word, ReportedFlags found) {
        if (word.literal()) {
            return;
        }
        List<ShellScript.Command> sources = word.substitutions().stream().flatMap(inner -> inner.allCommands().stream()).toList();
        flag(found, origin(sources), null);
    }

    /** A script piped into an interpreter: what produced it decides the flag. */
    private void pipedInto(List<ShellScript.Command> producers, ReportedFlags found) {
        String origin = origin(producers);
        if (!origin.equals(DYNAMIC)) {
            flag(found, origin, null);
        }
    }

    private static String origin(List<ShellScript.Command> producers) {
        boolean decoded = false;
        for (ShellScript.Command producer : producers) {
            ShellProgram program = ShellProgram.of(producer);
            if (program != null && program.fetches()) {
                return DOWNLOADED;
            }
            decoded |= program != null && program.decodes();
        }
        return decoded ? DECODED : DYNAMIC;
    }

    private void gitRemote(ShellProgram program, ReportedFlags found) {
        List<ShellScript.Word> operands = program.operands();
        if (operands.isEmpty() || !Set.of("clone", "fetch", "pull", "push", "ls-remote", "remote").contains(operands.getFirst().text())) {
            return;
        }
        for (ShellScript.Word operand : operands.subList(1, operands.size())) {
            String host = HostTarget.ofUrl(operand.text());
            if (host == null && operand.text().matches("[^/\\s]+@[^/\\s:]+:.*")) {
                host = HostTarget.ofUrl("ssh://" + operand.text());
            }
            if (host != null) {
                host(found, HTTP, host);
            }
        }
    }

    /**
     * The remote an ssh-like or socket client connects to: its first operand that names a host, for a remote
     * copy the host of {@code [user@]host:path}; {@code ?} when none is literal.
     */
    private static String socketHost(ShellProgram program) {
        List<ShellScript.Word> args = program.args();
        boolean remoteCopy = Set.of("scp", "rsync", "sftp").contains(program.name());
        boolean sshOptions = !program.name().startsWith("nc") && !program.name().equals("netcat");
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i).text();
            if (arg.startsWith("-")) {
                i += sshOptions && SSH_VALUE_OPTIONS.contains(arg) ? 1 : 0;
            } else if (args.get(i).literal() && !arg.matches("\\d+") && (!remoteCopy || arg.contains(":"))) {
                String host = HostTarget.ofUrl("ssh://" + (arg.contains("://") ? arg.substring(arg.indexOf("://") + 3) : arg));
                if (host != null && !host.equals(HostTarget.UNKNOWN)) {
                    return host;
                }
            }
        }
        return HostTarget.UNKNOWN;
    }

    /** Files the command writes: redirections, and the targets of tee, cp, mv, dd, touch, rm, curl -o, ... */
    private void writes(ShellScript.Command command, ShellProgram program, String directory, ReportedFlags found) {
        List<ShellScript.Word> targets = new ArrayList<>();
        command.redirects().stream().filter(ShellScript.Redirect::writes).forEach(redirect -> targets.add(redirect.target()));
        if (program != null) {
            List<ShellScript.Word> operands = program.operands();
            if (WRITERS_ALL.contains(program.name())) {
                targets.addAll(operands);
            } else if (WRITERS_LAST.contains(program.name()) && operands.size() >= 2) {
                targets.add(operands.getLast());
            } else if (program.name().equals("dd")) {
                operands.stream().filter(word -> word.text().startsWith("of=")).forEach(word -> targets.add(
                        new ShellScript.Word(word.text().substring(3), word.expansions(), word.substitutions())));
            }
            ShellScript.Word output = program.valueOf("-o", "--output", "-O", "--output-document", "-P", "--directory-prefix");
            if (output != null && ShellProgram.HTTP_CLIENTS.contains(program.name())) {
                targets.add(output);
            }
        }
        for (ShellScript.Word target : targets) {
            String outside = DEV_NET.matcher(target.text()).find() ? null : FileTarget.outside(within(directory, target.text()), insideOf);
            if (outside != null && !insideOf.isEmpty()) {
                flag(found, OUTSIDE, "path=" + outside);
            }
        }
    }

    private void flag(ReportedFlags found, String flag, String detail) {
        if (enabled.containsKey(flag)) {
            found.add(flag, detail);
        }
    }

    private void host(ReportedFlags found, String flag, String host) {
        if (enabled.containsKey(flag)) {
            found.addHost(flag, host);
        }
    }
}
