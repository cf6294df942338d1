package com.sandboxgateway.policy.input;

import java.util.Set;

/**
 * The typed model of the unions under the official {@code CreateResponse} schema: for each union, the
 * member types the gateway governs (it knows every place in them that holds text, a file or an id) and
 * those it refuses by decision. A type in neither list is refused too; {@code InputUnionSpecTest} fails
 * when the pinned spec gains a member nobody has decided on.
 */
public enum InputUnion {

    /** {@code InputItem} (with the members of {@code Item}). */
    INPUT_ITEM("input item",
            Set.of("message", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output",
                    "reasoning", "compaction", "code_interpreter_call", "shell_call", "shell_call_output", "item_reference",
                    "compaction_trigger"),
            // Tool calls of tools the gateway does not govern, and items whose content it cannot read.
            Set.of("file_search_call", "computer_call", "computer_call_output", "web_search_call", "tool_search_call",
                    "tool_search_output", "additional_tools", "image_generation_call", "local_shell_call",
                    "local_shell_call_output", "apply_patch_call",
                    "apply_patch_call_output", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "mcp_call",
                    "program", "program_output")),

    /** Parts of message content, of tool outputs and of prompt variables. */
    CONTENT_PART("content part", Set.of("input_text", "input_image", "input_file", "output_text", "refusal"), Set.of()),

    /** {@code annotations} of a replayed {@code output_text}. */
    ANNOTATION("annotation", Set.of("file_citation", "url_citation", "container_file_citation", "file_path"), Set.of()),

    /** {@code outputs} of a replayed {@code code_interpreter_call}. */
    CODE_OUTPUT("code interpreter output", Set.of("logs", "image"), Set.of()),

    /** {@code skills} of a created container or an auto container: a reference to a skill, or a skill inline. */
    SKILL("skill", Set.of("skill_reference", "inline"), Set.of()),

    /**
     * {@code environment} of a {@code shell} tool and of a replayed {@code shell_call}: a hosted container
     * (auto or referenced) or the client's own machine ({@code local}, allowed by {@code shell-local}).
     */
    SHELL_ENVIRONMENT("shell environment", Set.of("container_auto", "container_reference", "local"), Set.of()),

    /** {@code Tool}. */
    TOOL("tool", Set.of("code_interpreter", "function", "custom", "shell"),
            Set.of("file_search", "computer", "computer_use_preview", "web_search", "web_search_2025_08_26", "mcp",
                    "programmatic_tool_calling", "image_generation", "local_shell", "namespace", "tool_search",
                    "web_search_preview", "web_search_preview_2025_03_11", "apply_patch"));

    private final String displayName;
    private final Set<String> governed;
    private final Set<String> refused;

    InputUnion(String displayName, Set<String> governed, Set<String> refused) {
        this.displayName = displayName;
        this.governed = governed;
        this.refused = refused;
    }

    /** How refusals name the union ("input item"). */
    public String displayName() {
        return displayName;
    }

    /** Types whose every text, file and id place the walk knows. */
    public Set<String> governed() {
        return governed;
    }

    /** Types refused by decision (as any unknown type is). */
    public Set<String> refused() {
        return refused;
    }

    /** @param type a member's {@code type}, or {@code null} when the member names none (then not governed) */
    public boolean governs(String type) {
        return type != null && governed.contains(type);
    }
}
