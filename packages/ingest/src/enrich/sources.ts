// The table of well-known traffic sources: referrer hosts (and Android app ids, which Android
// sends as android-app://<id> referrers) and utm_source spellings, mapped to one display name and
// a kind the channel rules use. Data only; lookup logic lives in referrer.ts.

export type SourceKind = "search" | "social" | "email" | "other";

export interface KnownSource {
  name: string;
  kind: SourceKind;
}

type Table = Record<SourceKind, Record<string, readonly string[]>>;

/** name -> hosts (exact, or any subdomain of them) and lowercase utm_source aliases. */
const TABLE: Table = {
  search: {
    Google: ["com.google.android.googlequicksearchbox", "google"],
    Bing: ["bing.com", "cn.bing.com", "bing"],
    DuckDuckGo: ["duckduckgo.com", "ddg.gg", "duckduckgo", "ddg"],
    Yahoo: ["yahoo"],
    Baidu: ["baidu.com", "m.baidu.com", "baidu"],
    Yandex: ["ya.ru", "yandex"],
    Ecosia: ["ecosia.org", "ecosia"],
    Brave: ["search.brave.com", "brave"],
    Startpage: ["startpage.com", "startpage"],
    Qwant: ["qwant.com", "qwant"],
    Naver: ["naver.com", "search.naver.com", "naver"],
    Seznam: ["seznam.cz", "search.seznam.cz", "seznam"],
    Kagi: ["kagi.com", "kagi"],
    Sogou: ["sogou.com", "sogou"],
    Ask: ["ask.com"],
    AOL: ["search.aol.com"],
    Mojeek: ["mojeek.com"],
  },
  social: {
    Facebook: ["facebook.com", "fb.com", "fb.me", "messenger.com", "com.facebook.katana", "facebook", "fb"],
    Instagram: ["instagram.com", "com.instagram.android", "instagram", "ig"],
    "X (Twitter)": ["twitter.com", "x.com", "t.co", "com.twitter.android", "twitter", "x", "tw"],
    LinkedIn: ["linkedin.com", "lnkd.in", "com.linkedin.android", "linkedin"],
    Reddit: ["reddit.com", "redd.it", "com.reddit.frontpage", "reddit"],
    YouTube: ["youtube.com", "youtu.be", "com.google.android.youtube", "youtube", "yt"],
    TikTok: ["tiktok.com", "tiktok"],
    Pinterest: ["pinterest", "pin.it"],
    "Hacker News": ["news.ycombinator.com", "hn.algolia.com", "hackernews", "hacker news", "hn"],
    Mastodon: ["mastodon.social", "mastodon.online", "mstdn.social", "mastodon"],
    Bluesky: ["bsky.app", "bsky.social", "bluesky"],
    Threads: ["threads.net", "threads.com", "threads"],
    Telegram: ["t.me", "web.telegram.org", "org.telegram.messenger", "telegram"],
    WhatsApp: ["whatsapp.com", "wa.me", "com.whatsapp", "whatsapp"],
    Discord: ["discord.com", "discordapp.com", "discord"],
    Slack: ["slack.com", "com.slack", "slack"],
    Quora: ["quora.com", "quora"],
    Tumblr: ["tumblr.com", "tumblr"],
    VK: ["vk.com", "vk"],
    Weibo: ["weibo.com", "weibo.cn", "weibo"],
    Snapchat: ["snapchat.com", "snapchat"],
    "Product Hunt": ["producthunt.com", "producthunt"],
    Medium: ["medium.com"],
  },
  email: {
    Gmail: ["mail.google.com", "com.google.android.gm", "gmail"],
    Outlook: ["outlook.live.com", "outlook.office.com", "outlook.office365.com", "com.microsoft.office.outlook", "outlook"],
    "Yahoo Mail": ["mail.yahoo.com", "mail.yahoo.co.jp"],
    "Proton Mail": ["mail.proton.me", "mail.protonmail.com", "protonmail"],
    "iCloud Mail": ["icloud.com"],
    "Yandex Mail": ["mail.yandex.ru", "mail.yandex.com"],
    "Zoho Mail": ["mail.zoho.com", "mail.zoho.eu"],
    "AOL Mail": ["mail.aol.com"],
    GMX: ["gmx.net", "gmx.de", "gmx.com"],
    "WEB.DE": ["web.de"],
    Fastmail: ["fastmail.com", "app.fastmail.com"],
    HEY: ["app.hey.com"],
  },
  other: {
    GitHub: ["github.com", "github"],
    GitLab: ["gitlab.com"],
    "Stack Overflow": ["stackoverflow.com"],
    Wikipedia: ["wikipedia.org"],
    ChatGPT: ["chatgpt.com", "chat.openai.com", "chatgpt"],
    Perplexity: ["perplexity.ai", "perplexity"],
  },
};

/**
 * Search engines that run a site per country (google.de, yahoo.co.jp, yandex.com.tr): matched by
 * this label followed by a country-style suffix, whatever comes before it.
 */
export const BRANDS = new Map<string, KnownSource>([
  ["google", { name: "Google", kind: "search" }],
  ["yahoo", { name: "Yahoo", kind: "search" }],
  ["yandex", { name: "Yandex", kind: "search" }],
  ["pinterest", { name: "Pinterest", kind: "social" }],
]);

/** Host or app id -> source. Keys contain a dot. */
export const SOURCE_HOSTS = new Map<string, KnownSource>();
/** Lowercase utm_source spelling (name or alias) -> source. */
export const SOURCE_ALIASES = new Map<string, KnownSource>();

for (const kind of Object.keys(TABLE) as SourceKind[]) {
  for (const [name, keys] of Object.entries(TABLE[kind])) {
    const source: KnownSource = Object.freeze({ name, kind });
    SOURCE_ALIASES.set(name.toLowerCase(), source);
    for (const key of keys) {
      (key.includes(".") ? SOURCE_HOSTS : SOURCE_ALIASES).set(key, source);
      // Campaigns often name the site they were posted on: utm_source=facebook.com.
      if (key.includes(".")) SOURCE_ALIASES.set(key, source);
    }
  }
}
