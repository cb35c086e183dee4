-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markblog' OR '1'='1"
-- p5 = "2024-03-26 23:00:00"
-- p6 = "2024-04-04 22:00:00"
-- p7 = "Qx7Mark/admin' OR '1'='1"
SELECT path AS dim, uniqExact(vkey) AS visitors, sum(p_pageviews) AS pageviews
FROM (
  SELECT skey, vkey, start_ts, path, pageviews AS p_pageviews, engaged_ms AS p_engaged
  FROM (
    SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
    FROM (
      SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_path AS path, countIf(e_name = 'pageview') AS pageviews, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms
      FROM (
        SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
        FROM events
        WHERE property = {p1:String}
        AND ts >= toDateTime({p5:String}, 'UTC')
        AND ts < toDateTime({p6:String}, 'UTC')
      )
      GROUP BY e_session_id, e_path
      HAVING pageviews > 0
    )
    ANY INNER JOIN (
      SELECT e_session_id AS skey, min(e_ts) AS start_ts
      FROM (
        SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
        FROM events
        WHERE property = {p1:String}
        AND ts >= toDateTime({p5:String}, 'UTC')
        AND ts < toDateTime({p6:String}, 'UTC')
      )
      GROUP BY e_session_id
    ) USING (skey)
  )
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  AND (positionCaseInsensitiveUTF8(path, {p4:String}) > 0)
  AND skey NOT IN (
    SELECT skey
    FROM (
      SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_path AS path, countIf(e_name = 'pageview') AS pageviews, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p5:String}, 'UTC')
          AND ts < toDateTime({p6:String}, 'UTC')
        )
        GROUP BY e_session_id, e_path
        HAVING pageviews > 0
      )
      ANY INNER JOIN (
        SELECT e_session_id AS skey, min(e_ts) AS start_ts
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p5:String}, 'UTC')
          AND ts < toDateTime({p6:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
    AND path = {p7:String}
  )
) AS r0
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
