package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.filter.OncePerRequestFilter;

import com.openai.core.http.StreamResponse;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;
import com.sandboxgateway.budget.Budgets;
import com.sandboxgateway.budget.Charges;
import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * When a stream's writes become durable, against what the client has seen: bookkeeping (owner records, charges) is
 * made while the client reads the event that staged it, an executed code call's audit record made before its event is
 * relayed. The owner store notes each write, and the gateway's writes to the client are kept as it makes them, the
 * audit trail read before each: that an event was not yet relayed is read there, since a client could only show it by
 * waiting.
 */
class StreamSettlementOrderTest extends GatewayIntegrationTest {

    private static final String EXAMPLE_CALL = "ci_68a93ab8671881a39e3ac17e69d804a6";
    /** Runs with what the gateway is about to write to a client, before it writes it. */
    private static volatile Consumer<String> beforeSent = sent -> { };
    /** What the gateway has written to its clients, in order. */
    private static final StringBuffer SENT = new StringBuffer();
    /** What it had written to its clients each time it recorded owners. */
    private static final List<String> SENT_WHEN_OWNED = new CopyOnWriteArrayList<>();

    @Autowired
    OwnershipStore owners;

    @Autowired
    Budgets budgets;

    @BeforeEach
    void clear() {
        beforeSent = sent -> { };
        SENT.setLength(0);
    }

    /**
     * The owner records and charges go to the embedded store's maps, in no transaction: what the client had been sent is
     * read as the owner store is written, the charges riding in the same settling as the stream's last owner records.
     */
    @Test
    void shouldRecordTheOwnerRightAfterTheFirstEventAndEndTheStreamOnlyOnceCharged() {
        String response = unique("resp_");
        streamed(response, unique("ci_"));
        SENT_WHEN_OWNED.clear();

        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(codeRunning())) {
            stream.stream().forEach(event -> { });
        }
        assertThat(Charges.turns(budgets, response, "alice")).as("charged when the stream ended").hasSize(1);
        assertThat(Charges.spend(budgets, "response:" + response)).hasSize(1);

        assertThat(SENT_WHEN_OWNED.getFirst()).as("sent when the response's owner was recorded")
                .contains("event: response.created").doesNotContain("event: response.in_progress");
        assertThat(SENT_WHEN_OWNED.getLast()).as("sent when the last owners were recorded, with the charges")
                .contains("event: response.completed");
        assertThat(owners.find(response)).hasValueSatisfying(owner -> assertThat(owner.ownerUser()).isEqualTo("alice"));
    }

    @Test
    void shouldRelayAnExecutedCodeCallOnlyOnceItsAuditRecordIsMade() {
        String call = unique("ci_");
        streamed(unique("resp_"), call);
        AtomicReference<String> sentWhenAudited = new AtomicReference<>();
        beforeSent = sending -> {
            if (sentWhenAudited.get() == null && !audited(record -> call.equals(record.callId())).isEmpty()) {
                sentWhenAudited.set(SENT.toString());
            }
        };

        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(codeRunning())) {
            assertThat(stream.stream().filter(ResponseStreamEvent::isOutputItemDone).count()).isEqualTo(2);
        }

        assertThat(sentWhenAudited.get()).as("what the client had when the audit record of the call was first seen made")
                .contains("event: response.code_interpreter_call.completed")
                .doesNotContain("event: response.output_item.done");
        assertThat(audited(record -> call.equals(record.callId()))).hasSize(1);
    }

    /** The contract's streamed code-interpreter response, as {@code response}, its call as {@code call}. */
    private static void streamed(String response, String call) {
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(example("responses.stream.code-interpreter.sse").replace(EXAMPLE_RESPONSE_ID, response)
                        .replace(EXAMPLE_CALL, call).replace(EXAMPLE_CONTAINER_ID, unique("cntr_")))));
    }

    private static ResponseCreateParams codeRunning() {
        return ResponseCreateParams.builder().model("gpt-4.1").input("plot").addTool(Tool.CodeInterpreter.builder()
                .container(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder().build()).build()).build();
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Observed {

        /** The application's owner store, noting what had been sent as each answer's owners are recorded. */
        @Bean
        static BeanPostProcessor ownersNoted() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    if (!(bean instanceof OwnershipStore store)) {
                        return bean;
                    }
                    return Proxy.newProxyInstance(OwnershipStore.class.getClassLoader(), new Class<?>[] {OwnershipStore.class},
                            (proxy, method, args) -> {
                                if (method.getName().equals("recordAll")) {
                                    SENT_WHEN_OWNED.add(SENT.toString());
                                }
                                try {
                                    return method.invoke(store, args);
                                } catch (InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
                }
            };
        }

        @Bean
        OncePerRequestFilter sentToClients() {
            return new OncePerRequestFilter() {
                @Override
                protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                        throws ServletException, IOException {
                    chain.doFilter(request, new Kept(response));
                }
            };
        }
    }

    /** A response whose body bytes are kept in {@link #SENT} as they are written. */
    private static final class Kept extends HttpServletResponseWrapper {

        private ServletOutputStream kept;

        Kept(HttpServletResponse response) {
            super(response);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (kept == null) {
                ServletOutputStream out = super.getOutputStream();
                kept = new ServletOutputStream() {
                    @Override
                    public void write(int b) throws IOException {
                        beforeSent.accept(String.valueOf((char) b));
                        out.write(b);
                        SENT.append((char) b);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int length) throws IOException {
                        String sending = new String(bytes, offset, length, StandardCharsets.UTF_8);
                        beforeSent.accept(sending);
                        out.write(bytes, offset, length);
                        SENT.append(sending);
                    }

                    @Override
                    public void flush() throws IOException {
                        out.flush();
                    }

                    @Override
                    public boolean isReady() {
                        return out.isReady();
                    }

                    @Override
                    public void setWriteListener(WriteListener listener) {
                        out.setWriteListener(listener);
                    }
                };
            }
            return kept;
        }
    }
}
