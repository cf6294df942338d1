package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * What one governed code-running response costs the embedded H2 database (the gateway's default, in-memory state): no
 * statement and no transaction. The audit record, the owner records and the charges go to the file's maps
 * ({@link com.sandboxgateway.store.H2Maps}), made at once, which H2 writes to its file in the background.
 */
class StatementsPerResponseOnH2Test extends GatewayIntegrationTest {

    private static final JdbcCounts jdbc = new JdbcCounts();

    @DynamicPropertySource
    static void ownDatabase(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url",
                () -> "jdbc:h2:mem:statements_test;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
    }

    @TestConfiguration
    static class CountingDataSource {

        @Bean
        static BeanPostProcessor countStatements() {
            return jdbc.counting();
        }
    }

    @Test
    void shouldSettleACodeRunningResponseWithoutAStatement() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        for (int i = 0; i < 2; i++) {
            assertThat(codeRunningResponse(ALICE_KEY, file).statusCode()).isEqualTo(200);
        }

        jdbc.clear();
        HttpResponse<String> answer = codeRunningResponse(ALICE_KEY, file);
        JdbcCounts.Counts counted = jdbc.counts();

        assertThat(answer.statusCode()).isEqualTo(200);
        // The ownership check of the file id reads no table; the audit record, owner records and charges take none.
        assertThat(counted.sql()).as("SQL").isEmpty();
        assertThat(counted.commits()).isZero();
        Matcher call = Pattern.compile("\"id\"\\s*:\\s*\"(ci_[^\"]+)\"").matcher(answer.body());
        assertThat(call.find()).as("the answer's code call").isTrue();
        assertThat(audited(record -> call.group(1).equals(record.callId()))).as("its audit record").hasSize(1);
    }

    @Test
    void shouldSettleAStreamedCodeRunningResponseWithoutAStatement() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        assertThat(streamedCodeRunningResponse(ALICE_KEY, file).statusCode()).isEqualTo(200);

        jdbc.clear();
        HttpResponse<String> answer = streamedCodeRunningResponse(ALICE_KEY, file);
        JdbcCounts.Counts counted = jdbc.counts();

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains("event: response.completed");
        // The upstream sends its eighteen events a few bytes at a time, so nearly every one is flushed on its own. The
        // response's owner is recorded once the client has its first event (the client may retrieve it at once), the
        // call's audit record before the call is relayed, the turn and spend charges as the stream ends: in no
        // transaction.
        assertThat(counted.sql()).as("SQL").isEmpty();
        assertThat(counted.commits()).isZero();
    }

    @Test
    void shouldRunNoStatementForAStreamedResponseThatRanNoCode() throws Exception {
        String response = unique("resp_");
        String message = unique("msg_");
        String item = "{\"type\":\"message\",\"id\":\"" + message + "\",\"status\":\"%s\",\"role\":\"assistant\",\"content\":[%s]}";
        String done = item.formatted("completed", "{\"type\":\"output_text\",\"text\":\"Hello.\",\"annotations\":[]}");
        String head = "{\"id\":\"" + response + "\",\"object\":\"response\",\"created_at\":1756000000,\"model\":\"gpt-4.1\",";
        String events = event("response.created", "\"response\":" + head + "\"status\":\"in_progress\",\"output\":[]}")
                + event("response.output_item.added", "\"output_index\":0,\"item\":" + item.formatted("in_progress", ""))
                + event("response.output_text.delta", "\"output_index\":0,\"item_id\":\"" + message + "\",\"delta\":\"Hello.\"")
                + event("response.output_item.done", "\"output_index\":0,\"item\":" + done)
                + event("response.completed", "\"response\":" + head + "\"status\":\"completed\",\"output\":[" + done
                        + "],\"usage\":{\"input_tokens\":12,\"output_tokens\":3,\"total_tokens\":15}}");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(events).withChunkedDribbleDelay(events.length() / 32, 500)));

        jdbc.clear();
        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4.1\",\"input\":\"say hello\",\"stream\":true}")),
                "/v1/responses");
        JdbcCounts.Counts counted = jdbc.counts();

        assertThat(answer.body()).contains("event: response.completed");
        // The response's owner once the client has its first event, the charges as it ends: no statement at all.
        assertThat(counted.sql()).as("SQL").isEmpty();
    }

    private static String event(String type, String fields) {
        return "event: " + type + "\ndata: {\"type\":\"" + type + "\"," + fields + "}\n\n";
    }
}
