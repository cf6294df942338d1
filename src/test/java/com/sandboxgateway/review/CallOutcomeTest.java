package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.openai.OutputItem;

import tools.jackson.databind.json.JsonMapper;

class CallOutcomeTest {

    @Test
    void shouldCountFailedAndIncompleteCallsAsFailures() {
        assertThat(CallOutcome.of("failed", List.of())).isEqualTo(CallOutcome.FAILED);
        assertThat(CallOutcome.of("incomplete", List.of("partial output"))).isEqualTo(CallOutcome.FAILED);
        assertThat(CallOutcome.FAILED.isFailure()).isTrue();
    }

    @Test
    void shouldNotJudgeCallsThatAreStillRunning() {
        assertThat(CallOutcome.of("in_progress", List.of())).isEqualTo(CallOutcome.PENDING);
        assertThat(CallOutcome.of("interpreting", List.of("Traceback (most recent call last):"))).isEqualTo(CallOutcome.PENDING);
        assertThat(CallOutcome.PENDING.isFailure()).isFalse();
    }

    @Test
    void shouldSeeAPythonExceptionInTheLogsOfACompletedCall() {
        String traceback = """
                Traceback (most recent call last):
                  File "<stdin>", line 1, in <module>
                KeyError: 'amount'
                """;
        String ipython = "---------------------------------------------------------------------------\n"
                + "NameError                                 Traceback (most recent call last)\nCell In[3], line 1\n";

        assertThat(CallOutcome.of("completed", List.of(traceback))).isEqualTo(CallOutcome.RAISED);
        assertThat(CallOutcome.of("completed", List.of(ipython))).isEqualTo(CallOutcome.RAISED);
        assertThat(CallOutcome.of("completed", List.of("NameError: name 'x' is not defined"))).isEqualTo(CallOutcome.RAISED);
        assertThat(CallOutcome.of("completed", List.of("rows: 10\npandas.errors.ParserError: Error tokenizing data")))
                .isEqualTo(CallOutcome.RAISED);
        assertThat(CallOutcome.of("completed", List.of("rows: 10\r\n  KeyboardInterrupt \r\n\u2028 \n"))).isEqualTo(CallOutcome.RAISED);
        assertThat(CallOutcome.of("completed", List.of("rows: 10\u0085KeyError: 'x'\u0085"))).isEqualTo(CallOutcome.RAISED);
        assertThat(CallOutcome.RAISED.isFailure()).isTrue();
    }

    @Test
    void shouldNotMistakeOutputThatMentionsErrorsForAFailure() {
        assertThat(CallOutcome.of("completed", List.of("Mean Squared Error: 0.23"))).isEqualTo(CallOutcome.SUCCEEDED);
        assertThat(CallOutcome.of("completed", List.of("Error: 0.05\nR2: 0.91"))).isEqualTo(CallOutcome.SUCCEEDED);
        assertThat(CallOutcome.of("completed", List.of("KeyError handled, skipping 3 rows\ndone"))).isEqualTo(CallOutcome.SUCCEEDED);
        assertThat(CallOutcome.of("completed", List.of())).isEqualTo(CallOutcome.SUCCEEDED);
        assertThat(CallOutcome.of("completed", List.of("\u0085", "done\u0085\u0085"))).isEqualTo(CallOutcome.SUCCEEDED);
    }

    @Test
    void shouldReadAResponsesApiOutputItem() {
        var mapper = JsonMapper.builder().build();
        var failed = OutputItem.of(mapper.readTree("""
                {"type":"code_interpreter_call","id":"ci_1","status":"completed","code":"1/0",
                 "outputs":[{"type":"image","url":"https://x"},{"type":"logs","logs":"ZeroDivisionError: division by zero"}]}
                """));
        var fine = OutputItem.of(mapper.readTree("""
                {"type":"code_interpreter_call","id":"ci_2","status":"completed","outputs":[{"type":"logs","logs":"42"}]}
                """));

        assertThat(CallOutcome.ofItem(failed)).isEqualTo(CallOutcome.RAISED);
        assertThat(CallOutcome.ofItem(fine)).isEqualTo(CallOutcome.SUCCEEDED);
    }
}
