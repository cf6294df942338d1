package com.sandboxgateway.console;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The system's Chromium (Debian's {@code chromium} and {@code chromium-driver}, installed by {@code .ci/run}),
 * headless, with a fresh profile and nothing that reaches outside the machine; nothing is downloaded.
 */
final class HeadlessChromium {

    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    private HeadlessChromium() {
    }

    static ChromeDriver start(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(existing("/usr/lib/chromium/chromium", "/usr/bin/chromium"));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000", "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(existing("/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver")))
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().implicitlyWait(Duration.ofSeconds(5));
        return driver;
    }

    /** Saves the whole page as {@code target/console-screenshots/<name>.png}, kept as a test artifact. */
    static Path screenshot(ChromeDriver driver, String name) {
        Dimension viewport = driver.manage().window().getSize();
        long height = (Long) driver.executeScript("return document.documentElement.scrollHeight");
        driver.manage().window().setSize(new Dimension(viewport.getWidth(), (int) Math.min(height + 150, 8000)));
        try {
            Files.createDirectories(SCREENSHOTS);
            Path target = SCREENSHOTS.resolve(name + ".png");
            Files.copy(((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            driver.manage().window().setSize(viewport);
        }
    }

    private static String existing(String... candidates) {
        for (String candidate : candidates) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("Chromium is not installed (" + String.join(", ", candidates)
                + "); .ci/run installs Debian's chromium and chromium-driver");
    }
}
