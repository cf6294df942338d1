package com.sandboxgateway.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The commands the pretend model runs when a request offers the hosted {@code shell} tool, and what they
 * print, so shell auditing and review flags can be tried offline. A prompt about the web gets {@code curl}
 * (to the host named, if any), about the environment {@code env}, credentials {@code cat ~/.aws/credentials},
 * installing {@code pip install}, base64 a decode-and-run pipeline, failing a command that exits 1, a slow
 * run a timeout; anything else a look at {@code /mnt/data}. The answer is a {@code shell_call} and, unless the
 * commands run on the client ({@code local}), its {@code shell_call_output}.
 */
final class PretendShell {

    static final int TIMEOUT_MS = 120_000;
    static final int MAX_OUTPUT_LENGTH = 4_096;

    /** One command's output chunk; a {@code null} exit code is a timeout. */
    record Chunk(String stdout, String stderr, Integer exitCode) {
    }

    /** The commands run, each with its chunk. */
    record Run(List<String> commands, List<Chunk> output) {
    }

    private PretendShell() {
    }

    static Run run(String prompt, List<PretendModel.DataFile> data) {
        String asked = prompt.toLowerCase(Locale.ROOT);
        List<String> commands = new ArrayList<>();
        List<Chunk> output = new ArrayList<>();
        if (PretendModel.mentions(asked, "http", "web", "download", "fetch", "url", "internet")) {
            add(commands, output, "curl -s -o /dev/null -w '%{http_code}' " + PretendModel.url(prompt), "200", "", 0);
        }
        if (PretendModel.mentions(asked, "environment", "env var")) {
            add(commands, output, "env", "HOME=/root\nPATH=/usr/local/bin:/usr/bin\n", "", 0);
        }
        if (PretendModel.mentions(asked, "credential", "aws")) {
            add(commands, output, "cat ~/.aws/credentials", "", "cat: /root/.aws/credentials: No such file or directory\n", 1);
        }
        if (PretendModel.mentions(asked, "install", "pip", "package")) {
            add(commands, output, "pip install plotly", "Successfully installed plotly-5.24.1\n", "", 0);
        }
        if (PretendModel.mentions(asked, "base64", "obfuscat", "encoded")) {
            add(commands, output, "echo ZWNobyBkZWNvZGVkIGFuZCBydW4= | base64 -d | sh", "decoded and run\n", "", 0);
        }
        if (PretendModel.mentions(asked, "fail", "error", "crash", "broken")) {
            add(commands, output, "python3 -c \"print(1 / 0)\"", "", "ZeroDivisionError: division by zero\n", 1);
        }
        if (PretendModel.mentions(asked, "slow", "timeout", "sleep", "hang")) {
            add(commands, output, "sleep 600", "", "", null);
        }
        if (commands.isEmpty()) {
            look(data, commands, output);
        }
        return new Run(List.copyOf(commands), List.copyOf(output));
    }

    /** What the data looks like: the files, and the first lines of the first one. */
    private static void look(List<PretendModel.DataFile> data, List<String> commands, List<Chunk> output) {
        StringBuilder listing = new StringBuilder("total ").append(data.size()).append('\n');
        data.forEach(file -> listing.append("-rw-r--r-- 1 root root ").append(file.head().length).append(' ')
                .append(file.path().substring(file.path().lastIndexOf('/') + 1)).append('\n'));
        add(commands, output, "ls -la /mnt/data", listing.toString(), "", 0);
        if (!data.isEmpty()) {
            PretendModel.DataFile file = data.getFirst();
            StringBuilder head = new StringBuilder();
            new String(file.head(), StandardCharsets.UTF_8).lines().limit(5).forEach(line -> head.append(line).append('\n'));
            add(commands, output, "head -n 5 " + file.path(), head.toString(), "", 0);
        }
    }

    private static void add(List<String> commands, List<Chunk> output, String command, String stdout, String stderr,
                            Integer exitCode) {
        commands.add(command);
        output.add(new Chunk(stdout, stderr, exitCode));
    }

    /**
     * The output items of a run: the {@code shell_call} and, for a container, its {@code shell_call_output}.
     *
     * @param containerId where the commands ran, or {@code null} for the client's own machine
     */
    static List<ObjectNode> items(Run run, String containerId) {
        String callId = Storage.hexId("call_");
        ObjectNode call = Call.JSON.createObjectNode().put("type", "shell_call").put("id", Storage.hexId("sh_"))
                .put("call_id", callId);
        ObjectNode action = call.putObject("action");
        run.commands().forEach(action.putArray("commands")::add);
        action.put("timeout_ms", TIMEOUT_MS).put("max_output_length", MAX_OUTPUT_LENGTH);
        call.put("status", "completed");
        ObjectNode environment = call.putObject("environment");
        if (containerId == null) {
            environment.put("type", "local");
            return List.of(call);
        }
        environment.put("type", "container_reference").put("container_id", containerId);
        ObjectNode result = Call.JSON.createObjectNode().put("type", "shell_call_output").put("id", Storage.hexId("sho_"))
                .put("call_id", callId).put("status", "completed");
        ArrayNode chunks = result.putArray("output");
        for (Chunk chunk : run.output()) {
            ObjectNode item = chunks.addObject().put("stdout", chunk.stdout()).put("stderr", chunk.stderr());
            ObjectNode outcome = item.putObject("outcome");
            if (chunk.exitCode() == null) {
                outcome.put("type", "timeout");
            } else {
                outcome.put("type", "exit").put("exit_code", chunk.exitCode());
            }
        }
        result.put("max_output_length", MAX_OUTPUT_LENGTH);
        return List.of(call, result);
    }

    /** The model's closing message after the commands ran. */
    static String summary(Run run) {
        boolean failed = run.output().stream().anyMatch(chunk -> chunk.exitCode() == null || chunk.exitCode() != 0);
        return (failed ? "Some commands failed: " : "I ran ") + String.join("; ", run.commands()) + ".";
    }
}
