package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The program a simple command runs and its arguments, once what only wraps it is taken off: variable
 * assignments ({@code LANG=C}), keywords ({@code if}, {@code then}, {@code !}) and wrappers that run
 * their arguments as a command ({@code sudo}, {@code env}, {@code nohup}, {@code timeout 5}, {@code xargs}).
 * Knows which programs fetch from the network, decode, interpret their input and install packages.
 *
 * @param name the program's file name ({@code /usr/bin/curl} is {@code curl})
 * @param args its arguments
 * @param command the simple command it was read from (its redirections and here-document)
 */
record ShellProgram(String name, List<ShellScript.Word> args, ShellScript.Command command) {

    static final Set<String> HTTP_CLIENTS = Set.of("curl", "wget", "aria2c", "http", "https", "xh", "lynx", "links", "httpie");
    static final Set<String> SOCKET_CLIENTS = Set.of("nc", "ncat", "netcat", "socat", "telnet", "ssh", "scp", "sftp", "rsync", "ftp");
    static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh", "ash", "busybox");
    private static final Pattern INTERPRETER = Pattern.compile("python[0-9.]*|perl|ruby|node|nodejs|php|Rscript");
    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*\\+?=.*", Pattern.DOTALL);
    private static final Set<String> KEYWORDS = Set.of("if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!",
            "{", "}", "time", "esac", "function");
    private static final Set<String> NOT_COMMANDS = Set.of("for", "case", "select", "in");
    private static final Set<String> WRAPPERS = Set.of("sudo", "doas", "nohup", "nice", "exec", "command", "builtin", "stdbuf",
            "timeout", "xargs", "ionice", "chrt", "setsid", "unbuffer", "env");
    /** Options of wrappers that take a value ({@code sudo -u root}, {@code nice -n 5}, {@code xargs -I {}}). */
    private static final Map<String, Set<String>> VALUE_OPTIONS = Map.of("sudo", Set.of("-u", "-g", "-C", "-h", "-p"),
            "nice", Set.of("-n"), "xargs", Set.of("-I", "-n", "-P", "-d", "-L", "-s", "-E", "-a"),
            "timeout", Set.of("-s", "-k", "--signal", "--kill-after"), "env", Set.of("-u", "-C", "--unset", "--chdir"),
            "ionice", Set.of("-c", "-n"), "stdbuf", Set.of("-i", "-o", "-e"));
    private static final Map<String, Set<String>> INSTALL_SUBCOMMANDS = Map.ofEntries(Map.entry("pip", Set.of("install")),
            Map.entry("pipx", Set.of("install", "inject", "run")), Map.entry("uv", Set.of("add", "pip", "tool")),
            Map.entry("conda", Set.of("install", "create")), Map.entry("mamba", Set.of("install", "create")),
            Map.entry("micromamba", Set.of("install", "create")), Map.entry("apt", Set.of("install")),
            Map.entry("apt-get", Set.of("install")), Map.entry("aptitude", Set.of("install")), Map.entry("yum", Set.of("install")),
            Map.entry("dnf", Set.of("install")), Map.entry("zypper", Set.of("install", "in")), Map.entry("apk", Set.of("add")),
            Map.entry("brew", Set.of("install")), Map.entry("npm", Set.of("install", "i", "add", "ci")),
            Map.entry("yarn", Set.of("add", "install", "global")), Map.entry("pnpm", Set.of("add", "install", "i")),
            Map.entry("gem", Set.of("install")), Map.entry("cargo", Set.of("install")), Map.entry("go", Set.of("install", "get")),
            Map.entry("composer", Set.of("require", "install")), Map.entry("poetry", Set.of("add", "install")),
            Map.entry("easy_install", Set.of()));

    /** The program {@code command} runs, or {@code null} when it runs none ({@code for x in ...}, a bare assignment). */
    static ShellProgram of(ShellScript.Command command) {
        List<ShellScript.Word> words = command.words();
        int i = 0;
        while (i < words.size()) {
            String word = words.get(i).text();
            if (ASSIGNMENT.matcher(word).matches() || KEYWORDS.contains(word)) {
                i++;
            } else if (NOT_COMMANDS.contains(word) || word.equals("command") && i + 1 < words.size()
                    && words.get(i + 1).text().matches("-[vV]")) {
                return null; // a loop or case header, or a look-up such as "command -v curl"
            } else if (WRAPPERS.contains(baseName(word)) && i + 1 < words.size()) {
                int next = afterOptions(words, i + 1, baseName(word));
                if (baseName(word).equals("env") && next == words.size()) {
                    break; // env with nothing to run prints the environment
                }
                i = next;
            } else {
                break;
            }
        }
        if (i >= words.size()) {
            return null;
        }
        return new ShellProgram(baseName(words.get(i).text()), words.subList(i + 1, words.size()), command);
    }

    /** The index after a wrapper's options (and {@code timeout}'s duration, {@code env}'s assignments). */
    private static int afterOptions(List<ShellScript.Word> words, int from, String wrapper) {
        int i = from;
        Set<String> valued = VALUE_OPTIONS.getOrDefault(wrapper, Set.of());
        while (i < words.size()) {
            String word = words.get(i).text();
            if (word.startsWith("-") && word.length() > 1) {
                i += valued.contains(word) ? 2 : 1;
            } else if (wrapper.equals("env") && ASSIGNMENT.matcher(word).matches()) {
                i++;
            } else {
                break;
            }
        }
        return wrapper.equals("timeout") && i < words.size() ? i + 1 : i;
    }

    static String baseName(String word) {
        return word.substring(word.lastIndexOf('/') + 1);
    }

    /** The arguments that are not options ({@code -x}, {@code --flag}). */
    List<ShellScript.Word> operands() {
        List<ShellScript.Word> operands = new ArrayList<>();
        for (ShellScript.Word arg : args) {
            if (!arg.text().startsWith("-") || arg.text().equals("-")) {
                operands.add(arg);
            }
        }
        return operands;
    }

    boolean hasArg(String... options) {
        for (ShellScript.Word arg : args) {
            for (String option : options) {
                if (arg.text().equals(option)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The value after one of these options ({@code -o out.txt}), or {@code null}. */
    ShellScript.Word valueOf(String... options) {
        for (int i = 0; i + 1 < args.size(); i++) {
            for (String option : options) {
                if (args.get(i).text().equals(option)) {
                    return args.get(i + 1);
                }
            }
        }
        return null;
    }

    boolean isShell() {
        return SHELLS.contains(name);
    }

    boolean isPython() {
        return name.startsWith("python");
    }

    /** A shell or another interpreter. */
    boolean isInterpreter() {
        return isShell() || INTERPRETER.matcher(name).matches();
    }

    /** An interpreter that runs what it reads on standard input: no script named, or {@code -}, or {@code -s}. */
    boolean readsScriptFromInput() {
        if (!isInterpreter() || hasArg("-c", "-e", "-m")) {
            return false;
        }
        List<ShellScript.Word> operands = operands();
        return operands.isEmpty() || operands.getFirst().text().equals("-") || hasArg("-s");
    }

    boolean fetches() {
        return HTTP_CLIENTS.contains(name) || SOCKET_CLIENTS.contains(name);
    }

    /** Decodes base64, hex or a compressed stream. */
    boolean decodes() {
        return switch (name) {
            case "base64", "base32", "basenc" -> hasArg("-d", "--decode", "-D");
            case "xxd" -> hasArg("-r", "-revert");
            case "openssl" -> hasArg("-d") && (hasArg("base64") || hasArg("enc") || hasArg("-base64") || hasArg("-a"));
            case "uudecode", "gunzip", "zcat", "bzcat", "xzcat", "unxz" -> true;
            case "gzip", "bzip2", "xz", "zstd" -> hasArg("-d", "--decompress");
            default -> false;
        };
    }

    /** Installs packages: {@code pip install}, {@code apt-get install}, {@code npm i}, {@code python -m pip install}. */
    boolean installs() {
        List<ShellScript.Word> operands = operands();
        String sub = operands.isEmpty() ? "" : operands.getFirst().text();
        if (isPython()) {
            ShellScript.Word module = valueOf("-m");
            return module != null && module.text().startsWith("pip") && hasArg("install");
        }
        String program = name.matches("pip[0-9.]*") ? "pip" : name;
        Set<String> subcommands = INSTALL_SUBCOMMANDS.get(program);
        if (subcommands == null) {
            return false;
        }
        if (program.equals("uv")) {
            return sub.equals("add") || (sub.equals("pip") || sub.equals("tool")) && hasArg("install");
        }
        return subcommands.isEmpty() || subcommands.contains(sub);
    }
}
