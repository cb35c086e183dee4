import { describe, expect, it } from "vitest";
import { channelFor } from "./channel.js";
import { knownSourceForHost, parseReferrer, sourceFor } from "./referrer.js";
import { parsePageUrl } from "./url.js";

const page = "example.com";
const internal = (host: string) => host === page || host === `www.${page}`;

/** The whole path from landing URL + referrer to (source, channel), as enrich runs it. */
function classify(url: string, referrer = "") {
  const p = parsePageUrl(url);
  const ref = parseReferrer(referrer, internal);
  const { source, kind } = sourceFor(ref.host, p.sourceTag);
  return { source, channel: channelFor({ kind, source, utmMedium: p.utm.medium, paidClickId: p.paidClickId }) };
}

describe("parseReferrer", () => {
  it("keeps scheme, host and path of external referrers, never the query", () => {
    expect(parseReferrer("https://www.Google.com/search?q=secret+stuff#x", internal)).toEqual({
      referrer: "https://www.google.com/search",
      host: "www.google.com",
      internal: false,
    });
  });

  it("marks the site's own pages as internal and stores nothing", () => {
    expect(parseReferrer("https://www.example.com/pricing?a=1", internal)).toEqual({ referrer: "", host: "", internal: true });
  });

  it("keeps Android app referrers by app id", () => {
    expect(parseReferrer("android-app://com.google.android.gm/", internal)).toMatchObject({
      referrer: "android-app://com.google.android.gm",
      host: "com.google.android.gm",
    });
  });

  it.each(["", "   ", "not a url", "about:blank", "data:text/plain,hi"])("ignores %j", (r) => {
    expect(parseReferrer(r, internal)).toEqual({ referrer: "", host: "", internal: false });
  });
});

describe("knownSourceForHost", () => {
  it.each([
    ["www.google.com", "Google"],
    ["google.co.uk", "Google"],
    ["www.google.com.br", "Google"],
    ["mail.google.com", "Gmail"],
    ["www.bing.com", "Bing"],
    ["duckduckgo.com", "DuckDuckGo"],
    ["search.yahoo.co.jp", "Yahoo"],
    ["mail.yahoo.com", "Yahoo Mail"],
    ["yandex.ru", "Yandex"],
    ["www.baidu.com", "Baidu"],
    ["www.ecosia.org", "Ecosia"],
    ["l.facebook.com", "Facebook"],
    ["lm.facebook.com", "Facebook"],
    ["l.instagram.com", "Instagram"],
    ["t.co", "X (Twitter)"],
    ["x.com", "X (Twitter)"],
    ["www.linkedin.com", "LinkedIn"],
    ["old.reddit.com", "Reddit"],
    ["m.youtube.com", "YouTube"],
    ["www.tiktok.com", "TikTok"],
    ["pinterest.de", "Pinterest"],
    ["github.com", "GitHub"],
    ["news.ycombinator.com", "Hacker News"],
    ["outlook.live.com", "Outlook"],
    ["com.google.android.gm", "Gmail"],
  ])("%s is %s", (host, name) => expect(knownSourceForHost(host)?.name).toBe(name));

  it.each(["example.org", "google.example.com", "mygoogle.com", "constructor", "__proto__.com"])("%s is unknown", (host) =>
    expect(knownSourceForHost(host)).toBeUndefined(),
  );
});

describe("source and channel", () => {
  const landing = "https://example.com/landing";
  it.each([
    // [url, referrer, source, channel]
    [landing, "", "", "direct"],
    [landing, "https://www.example.com/other", "", "direct"],
    [landing, "https://www.google.com/", "Google", "search"],
    [landing, "https://www.google.de/", "Google", "search"],
    [landing, "https://www.bing.com/search?q=x", "Bing", "search"],
    [landing, "https://duckduckgo.com/", "DuckDuckGo", "search"],
    [landing, "https://yandex.ru/search/", "Yandex", "search"],
    [landing, "https://l.facebook.com/l.php?u=x", "Facebook", "social"],
    [landing, "https://t.co/abc", "X (Twitter)", "social"],
    [landing, "https://www.linkedin.com/feed/", "LinkedIn", "social"],
    [landing, "https://www.reddit.com/r/webdev/", "Reddit", "social"],
    [landing, "https://news.ycombinator.com/item?id=1", "Hacker News", "social"],
    [landing, "https://www.youtube.com/watch?v=1", "YouTube", "social"],
    [landing, "https://mail.google.com/", "Gmail", "email"],
    [landing, "android-app://com.google.android.gm/", "Gmail", "email"],
    [landing, "https://github.com/org/repo", "GitHub", "referral"],
    [landing, "https://blog.someone.net/post", "blog.someone.net", "referral"],
    [landing, "https://www.someone.net/post", "someone.net", "referral"],
    [`${landing}?utm_source=google&utm_medium=cpc`, "https://www.google.com/", "Google", "paid"],
    [`${landing}?utm_source=facebook&utm_medium=paid_social`, "", "Facebook", "paid"],
    [`${landing}?utm_source=bing&utm_medium=ppc`, "", "Bing", "paid"],
    [`${landing}?gclid=abc`, "https://www.google.com/", "Google", "paid"],
    [`${landing}?msclkid=abc`, "https://www.bing.com/", "Bing", "paid"],
    [`${landing}?fbclid=abc`, "https://l.facebook.com/", "Facebook", "social"],
    [`${landing}?utm_source=newsletter&utm_medium=email`, "", "newsletter", "email"],
    [`${landing}?utm_source=Weekly+Digest&utm_medium=e-mail`, "", "Weekly Digest", "email"],
    [`${landing}?utm_source=fb&utm_medium=social`, "", "Facebook", "social"],
    [`${landing}?utm_source=twitter`, "", "X (Twitter)", "social"],
    [`${landing}?utm_source=linkedin.com`, "", "LinkedIn", "social"],
    [`${landing}?utm_source=partner-site`, "", "partner-site", "referral"],
    [`${landing}?utm_source=partner&utm_medium=referral`, "", "partner", "referral"],
    [`${landing}?utm_medium=banner`, "", "", "paid"],
    [`${landing}?utm_source=google&utm_medium=organic`, "", "Google", "search"],
    [`${landing}?ref=producthunt`, "", "Product Hunt", "social"],
    [`${landing}?ref=some-blog`, "https://www.google.com/", "some-blog", "referral"],
    [`${landing}?utm_source=gmail`, "", "Gmail", "email"],
  ])("%s from %j -> %s / %s", (url, referrer, source, channel) => {
    expect(classify(url, referrer)).toEqual({ source, channel });
  });
});
