package com.sandboxgateway.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model the simulator pretends to be: it writes the Python a prompt asks for, so what the gateway does
 * with executed code (review flags, {@code runaway_session}, the flagged-code panel) can be tried offline.
 * A prompt that asks for a web request gets code that reaches a host (the one named, if any); one about
 * environment variables, credentials, installing packages, shell commands, sockets, base64 or huge files
 * gets code that does that; one about failing or errors gets code that raises, three times over as a model
 * retrying would. Anything else gets a look at the data in {@code /mnt/data} and a chart.
 */
final class PretendModel {

    /** One executed block: its code, what it printed, and whether it saved the chart. */
    record Run(String code, String logs, boolean failed, boolean savesChart) {
    }

    /** What the model answers: the blocks it ran (in order) and its closing message. */
    record Answer(List<Run> runs, String message) {
    }

    /** A data file in the container, with its first bytes, so the pretend analysis can show what arrived. */
    record DataFile(String path, byte[] head) {
    }

    static final String CHART_PATH = "/mnt/data/plot.png";
    private static final int FAILED_ATTEMPTS = 3;
    private static final Pattern URL = Pattern.compile("https?://[A-Za-z0-9.-]+(?::\\d+)?(?:/[^\\s\"'<>]*)?");
    private static final Pattern HOST = Pattern.compile("\\b(?:[a-z0-9-]+\\.)+(?:com|org|net|io|dev|ai|co|de|uk|gov|edu)\\b");

    private PretendModel() {
    }

    /**
     * @param prompt the instructions and input text of the request
     * @param data the files in the container's {@code /mnt/data}
     * @param maxCalls how many code blocks the request allows ({@code max_tool_calls}); 0 runs none
     */
    static Answer answer(String prompt, List<DataFile> data, int maxCalls) {
        if (maxCalls <= 0) {
            return new Answer(List.of(), "I can answer that without running code: " + firstWords(prompt) + ".");
        }
        String asked = prompt.toLowerCase(Locale.ROOT);
        DataFile file = data.stream().filter(d -> d.path().endsWith(".csv") || d.path().endsWith(".tsv")).findFirst()
                .orElse(data.isEmpty() ? null : data.getFirst());
        if (mentions(asked, "fail", "error", "crash", "broken", "exception")) {
            List<Run> runs = new ArrayList<>();
            for (int attempt = 0; attempt < Math.min(maxCalls, FAILED_ATTEMPTS); attempt++) {
                runs.add(failing(file, attempt));
            }
            return new Answer(runs, "The analysis kept failing (division by zero in the growth rate); "
                    + "the data may have a month without revenue.");
        }
        StringBuilder code = new StringBuilder();
        StringBuilder logs = new StringBuilder();
        List<String> did = new ArrayList<>();
        risky(prompt, asked, code, logs, did);
        analysis(file, code, logs);
        String message = (did.isEmpty() ? "Here is the chart of your data." : "I " + String.join(", ", did)
                + ", then charted your data.") + "\n\nDownload: [plot.png](sandbox:" + CHART_PATH + ")";
        return new Answer(List.of(new Run(code.toString(), logs.toString(), false, true)), message);
    }

    private static void risky(String prompt, String asked, StringBuilder code, StringBuilder logs, List<String> did) {
        if (mentions(asked, "http", "web", "download", "fetch", "url", "internet", "website", " api")) {
            String url = url(prompt);
            code.append("import requests\nresponse = requests.get(\"").append(url).append("\", timeout=30)\n")
                    .append("print(response.status_code, len(response.content))\n");
            logs.append("200 5120\n");
            did.add("downloaded " + url);
        }
        if (mentions(asked, "environment", "env var", "getenv", "env ")) {
            code.append("import os\nfor name, value in sorted(os.environ.items()):\n    print(name, '=', value)\n");
            logs.append("HOME = /root\nPATH = /usr/local/bin:/usr/bin\n");
            did.add("listed the environment variables");
        }
        if (mentions(asked, "credential", "aws", "ssh", "password file")) {
            code.append("import os\nwith open(os.path.expanduser('~/.aws/credentials')) as f:\n    print(f.read())\n");
            logs.append("[default]\n");
            did.add("read the AWS credentials file");
        }
        if (mentions(asked, "install", "pip", "package")) {
            code.append("import subprocess\nsubprocess.run('pip install plotly', shell=True, check=True)\n");
            logs.append("Successfully installed plotly-5.24.1\n");
            did.add("installed plotly");
        }
        if (mentions(asked, "shell", "command line", "terminal", "bash")) {
            code.append("import subprocess\nprint(subprocess.run('ls -la /mnt/data', shell=True, capture_output=True, text=True).stdout)\n");
            logs.append("total 8\n");
            did.add("ran a shell command");
        }
        if (mentions(asked, "socket", "tcp", "port ")) {
            code.append("import socket\nconnection = socket.create_connection((\"").append(host(prompt)).append("\", 443), timeout=5)\n")
                    .append("connection.close()\n");
            did.add("opened a socket");
        }
        if (mentions(asked, "base64", "obfuscat", "encoded")) {
            code.append("import base64\nexec(base64.b64decode('cHJpbnQoJ2RlY29kZWQgYW5kIHJ1bicp').decode())\n");
            logs.append("decoded and run\n");
            did.add("ran base64-encoded code");
        }
        if (mentions(asked, "huge", "large file", "fill the disk", "10 gb")) {
            code.append("import numpy as np\nblock = np.zeros(10_000_000_000, dtype=np.uint8)\nblock.tofile('/mnt/data/huge.bin')\n");
            did.add("wrote a 10 GB file");
        }
    }

    /** Reads the data file, prints its shape and first lines (as the sandbox received them), saves a chart. */
    private static void analysis(DataFile file, StringBuilder code, StringBuilder logs) {
        code.append("import pandas as pd\nimport matplotlib.pyplot as plt\n");
        if (file == null) {
            code.append("df = pd.DataFrame({'x': range(10), 'y': [v * v for v in range(10)]})\n");
            logs.append("(10, 2)\n");
        } else {
            code.append("df = pd.read_csv('").append(file.path()).append("'").append(file.path().endsWith(".tsv") ? ", sep='\\t'" : "")
                    .append(")\nprint(df.shape)\nprint(df.head())\n");
            List<String> lines = new String(file.head(), StandardCharsets.UTF_8).lines().limit(6).toList();
            int columns = lines.isEmpty() ? 0 : lines.getFirst().split(file.path().endsWith(".tsv") ? "\t" : ",", -1).length;
            logs.append("(").append(Math.max(0, lines.size() - 1)).append(", ").append(columns).append(")\n");
            lines.forEach(line -> logs.append(line).append('\n'));
        }
        code.append("df.plot()\nplt.savefig('").append(CHART_PATH).append("')\n");
    }

    private static Run failing(DataFile file, int attempt) {
        String source = file == null ? "pd.DataFrame({'revenue': [0]})" : "pd.read_csv('" + file.path() + "')";
        String code = "import pandas as pd\ndf = " + source + "\ngrowth = df.iloc[-1, -1] / " + (attempt == 0 ? "0" : "(df.iloc[0, -1] - df.iloc[0, -1])")
                + "\nprint(growth)\n";
        String logs = "Traceback (most recent call last):\n  File \"<stdin>\", line 3, in <module>\nZeroDivisionError: division by zero\n";
        return new Run(code, logs, true, false);
    }

    static String url(String prompt) {
        Matcher url = URL.matcher(prompt);
        return url.find() ? url.group() : "https://" + host(prompt) + "/data.json";
    }

    private static String host(String prompt) {
        Matcher url = URL.matcher(prompt);
        if (url.find()) {
            return url.group().replaceFirst("https?://", "").replaceFirst("[:/].*", "");
        }
        Matcher host = HOST.matcher(prompt.toLowerCase(Locale.ROOT));
        return host.find() ? host.group() : "api.example.com";
    }

    static boolean mentions(String asked, String... words) {
        for (String word : words) {
            if (asked.contains(word)) {
                return true;
            }
        }
        return false;
    }

    private static String firstWords(String prompt) {
        String trimmed = prompt.strip();
        return trimmed.length() <= 60 ? trimmed : trimmed.substring(0, 60) + "…";
    }
}
