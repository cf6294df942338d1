package com.sandboxgateway.policy.input;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the one walk costs per request, on a long replayed conversation: {@code items} input items (a
 * user message, a function call and its output, a reasoning item and a code-interpreter call with logs,
 * repeated), four tools and metadata. Not a test: run it on the test classpath,
 * <pre>
 * ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp target/classes:target/test-classes:$(cat /tmp/cp.txt) com.sandboxgateway.policy.input.RequestWalkBenchmark [items]
 * </pre>
 * It prints the body size, the places found, and the best microseconds per walk over five passes of
 * 200 walks each after a warm-up (the best, since a shared machine only ever slows a pass down). Parsing
 * the body is not included: the gateway parses it once anyway.
 */
public final class RequestWalkBenchmark {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RequestWalkBenchmark() {
    }

    public static void main(String[] args) {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        ObjectNode body = conversation(items);
        InputPlaces places = RequestWalk.ofResponseRequest(body);
        System.out.printf("body: %d input items, %.1f KB; places: %d texts, %d files, %d ids, %d unsupported%n",
                body.path("input").size(), JSON.writeValueAsBytes(body).length / 1024.0, places.texts().size(),
                places.files().size(), places.ids().size(), places.unsupported().size());
        for (int i = 0; i < 20_000; i++) {
            RequestWalk.ofResponseRequest(body);
        }
        double best = Double.MAX_VALUE;
        for (int pass = 0; pass < 5; pass++) {
            long start = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                RequestWalk.ofResponseRequest(body);
            }
            best = Math.min(best, (System.nanoTime() - start) / 200 / 1e3);
        }
        System.out.printf("walk: %.1f us per request (best of 5 passes)%n", best);
    }

    private static ObjectNode conversation(int items) {
        ObjectNode body = JSON.createObjectNode().put("model", "gpt-4.1").put("instructions", "You analyse sales data.");
        ArrayNode input = body.putArray("input");
        String prose = "Revenue by region for the third quarter, compared with last year and split by product line. ";
        for (int i = 0; input.size() < items; i++) {
            input.addObject().put("role", "user").putArray("content").addObject().put("type", "input_text").put("text", prose.repeat(4));
            input.addObject().put("type", "function_call").put("id", "fc_" + i).put("call_id", "call_" + i)
                    .put("name", "lookup").put("arguments", "{\"region\":\"EMEA\",\"quarter\":3}");
            input.addObject().put("type", "function_call_output").put("call_id", "call_" + i).put("output", prose.repeat(8));
            ObjectNode reasoning = input.addObject().put("type", "reasoning").put("id", "rs_" + i);
            reasoning.putArray("summary").addObject().put("type", "summary_text").put("text", prose);
            ObjectNode call = input.addObject().put("type", "code_interpreter_call").put("id", "ci_" + i)
                    .put("status", "completed").put("container_id", "cntr_1").put("code", "df.groupby('region').sum()\n".repeat(5));
            call.putArray("outputs").addObject().put("type", "logs").put("logs", "region,total\nEMEA,1200\n".repeat(10));
        }
        ArrayNode tools = body.putArray("tools");
        tools.addObject().put("type", "code_interpreter").putObject("container").put("type", "auto");
        for (String name : new String[] {"lookup", "forecast", "export"}) {
            ObjectNode function = tools.addObject().put("type", "function").put("name", name).put("description", prose);
            function.putObject("parameters").put("type", "object").putObject("properties").putObject("region").put("type", "string");
        }
        body.putObject("metadata").put("ticket", "SALES-1234").put("team", "analytics");
        return body;
    }
}
