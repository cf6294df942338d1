package com.sandboxgateway.review;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link ShellLexer} makes of a shell command line: pipelines (split at {@code ;}, {@code &&},
 * {@code ||}, {@code &} and line breaks), each a list of simple commands joined by {@code |}. Subshells and
 * groups are flattened into the list; command and process substitutions are scripts of their own, held by
 * the word they appear in.
 */
record ShellScript(List<List<Command>> pipelines) {

    ShellScript {
        pipelines = pipelines.stream().map(List::copyOf).toList();
    }

    /** Every simple command of this script and of the substitutions in it, at any depth. */
    List<Command> allCommands() {
        List<Command> all = new ArrayList<>();
        for (List<Command> pipeline : pipelines) {
            for (Command command : pipeline) {
                all.add(command);
                for (Word word : command.wordsAndTargets()) {
                    word.substitutions().forEach(inner -> all.addAll(inner.allCommands()));
                }
            }
        }
        return all;
    }

    /**
     * One simple command.
     *
     * @param words the command's words, assignments ({@code X=1}) and keywords ({@code if}, {@code then}) included
     * @param redirects its redirections, in order
     * @param input what a here-document ({@code <<EOF}) or here-string ({@code <<<}) feeds it, or {@code null}
     */
    record Command(List<Word> words, List<Redirect> redirects, String input) {

        Command {
            words = List.copyOf(words);
            redirects = List.copyOf(redirects);
        }

        List<Word> wordsAndTargets() {
            List<Word> all = new ArrayList<>(words);
            redirects.forEach(redirect -> all.add(redirect.target()));
            return all;
        }
    }

    /**
     * A redirection such as {@code >> /tmp/x} or {@code 2>&1}.
     *
     * @param operator the operator without its file descriptor: {@code >}, {@code >>}, {@code <}, {@code &>}, ...
     */
    record Redirect(String operator, Word target) {

        /** Whether it writes to its target: a file, not a file descriptor ({@code 2>&1}, {@code >&-}). */
        boolean writes() {
            return operator.contains(">") && !(operator.endsWith("&") && target.text().matches("\\d+-?|-"));
        }
    }

    /**
     * One word after quote removal.
     *
     * @param text the word as the shell would see it before expansion: quotes removed, {@code $NAME} and
     *             {@code ${NAME}} kept as written, command substitutions left out
     * @param expansions the names of the parameters it expands ({@code HOME} for {@code "$HOME/x"})
     * @param substitutions the scripts of its {@code $(...)}, backquotes, {@code <(...)} and {@code >(...)}
     */
    record Word(String text, List<String> expansions, List<ShellScript> substitutions) {

        Word {
            expansions = List.copyOf(expansions);
            substitutions = List.copyOf(substitutions);
        }

        /** Whether the word is the same whatever the environment: no parameter and no command substitution. */
        boolean literal() {
            return expansions.isEmpty() && substitutions.isEmpty();
        }
    }
}
