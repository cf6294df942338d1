package com.sandboxgateway.openai;

import static com.sandboxgateway.support.Exchanges.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.upstream.SseEvent;

class AnswerTest {

    private static final String RESPONSE = """
            {"id":"resp_1","status":"completed","model":"gpt-5","usage":{"input_tokens":7,"output_tokens":3},
             "output":[{"type":"code_interpreter_call","id":"ci_1","status":"completed","container_id":"cntr_1","code":"1+1"},
                       {"type":"shell_call","id":"sh_1","call_id":"call_1","status":"completed"},
                       {"type":"shell_call_output","id":"sho_1","call_id":"call_1"},
                       {"type":"brand_new_kind","id":"x_1"},
                       {"type":"message","id":"msg_1","content":[{"type":"output_text","annotations":[
                          {"type":"container_file_citation","file_id":"cfile_1","container_id":"cntr_1"}]}]}]}""";

    @Test
    void shouldViewAFinishedResponseWithItsItemsByKind() {
        Answer answer = Answer.ofJson(tree(RESPONSE), true);

        ResponseView response = answer.finishedResponse().orElseThrow();
        assertThat(response.id()).isEqualTo("resp_1");
        assertThat(response.model()).isEqualTo("gpt-5");
        assertThat(response.usage()).isEqualTo(new ResponseView.Usage(7, 3));
        assertThat(response.output(ItemKind.CODE_INTERPRETER_CALL)).singleElement()
                .satisfies(call -> assertThat(call.containerId()).isEqualTo("cntr_1"));
        assertThat(response.output(ItemKind.SHELL_CALL)).extracting(OutputItem::id).containsExactly("sh_1");
        assertThat(response.output(ItemKind.SHELL_CALL_OUTPUT)).extracting(OutputItem::id).containsExactly("sho_1");
        assertThat(response.output(ItemKind.OTHER)).extracting(OutputItem::id).containsExactly("x_1");
        assertThat(response.output(ItemKind.MESSAGE).getFirst().citedContainerFiles())
                .containsExactly(new OutputItem.CitedFile("cfile_1", "cntr_1"));
    }

    @Test
    void shouldNotCallARunningResponseFinished() {
        Answer running = Answer.ofJson(tree("{\"id\":\"resp_1\",\"status\":\"in_progress\"}"), true);

        assertThat(running.response()).isPresent();
        assertThat(running.finishedResponse()).isEmpty();
    }

    @Test
    void shouldSeeNoResponseInTheJsonOfOtherRoutes() {
        assertThat(Answer.ofJson(tree("{\"id\":\"file-1\",\"status\":\"processed\"}"), false).response()).isEmpty();
    }

    @Test
    void shouldTellTheEventsThatEndAStream() {
        assertThat(event("response.completed", "{\"type\":\"response.completed\",\"response\":" + RESPONSE + "}").endsStream())
                .isTrue();
        assertThat(event("error", "{\"type\":\"error\"}").endsStream()).isTrue();
        assertThat(Answer.ofEvent(new SseEvent(new byte[0], null, "[DONE]", true), null).endsStream()).isTrue();
        assertThat(event("response.in_progress", "{\"type\":\"response.in_progress\"}").endsStream()).isFalse();
    }

    @Test
    void shouldTakeTheFinishedResponseOnlyFromAFinishingEvent() {
        String completedResponse = "{\"id\":\"resp_1\",\"status\":\"completed\"}";

        assertThat(event("response.completed", "{\"response\":" + completedResponse + "}").finishedResponse()).isPresent();
        assertThat(event("response.in_progress", "{\"response\":" + completedResponse + "}").finishedResponse()).isEmpty();
    }

    @Test
    void shouldGiveTheDoneItemAndTheSequenceNumberOfAnEvent() {
        Answer done = event("response.output_item.done",
                "{\"sequence_number\":4,\"item\":{\"type\":\"shell_call\",\"id\":\"sh_1\",\"status\":\"completed\"}}");

        assertThat(done.doneItem()).get().satisfies(item -> assertThat(item.is(ItemKind.SHELL_CALL)).isTrue());
        assertThat(done.sequenceNumber()).isEqualTo(4);
        assertThat(event("response.output_item.added", "{\"item\":{\"type\":\"message\"}}").doneItem()).isEmpty();
    }

    @Test
    void shouldReplaceOnlyAJsonBody() {
        Answer event = event("response.created", "{}");

        assertThatThrownBy(() -> event.replacedBy(tree("{}"))).isInstanceOf(IllegalStateException.class);
        assertThat(Answer.ofJson(tree("{\"data\":[1]}"), false).replacedBy(tree("{\"data\":[]}")).json())
                .isEqualTo(tree("{\"data\":[]}"));
    }

    private static Answer event(String type, String data) {
        byte[] raw = ("event: " + type + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
        return Answer.ofEvent(new SseEvent(raw, type, data, true), tree(data));
    }
}
