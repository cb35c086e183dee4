-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-26 23:00:00"
-- p5 = "2024-04-04 22:00:00"
-- p6 = "Qx7Markgoal' OR '1'='1"
SELECT name AS dim, uniqExact(vkey) AS visitors, sum(x_events) AS events, 100 * (toFloat64(uniqExactIf(vkey, coalesce(cv_converted, 0) = 1)) / nullIf(uniqExact(vkey), 0)) AS conversion_rate
FROM (
  SELECT skey, vkey, start_ts, name, x_events, cv_converted
  FROM (
    SELECT skey, vkey, start_ts, name, events AS x_events
    FROM (
      SELECT property, skey, vkey, start_ts, name, events, revenue
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_name AS name, count() AS events, sum(e_revenue) AS revenue
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p4:String}, 'UTC')
          AND ts < toDateTime({p5:String}, 'UTC')
        )
        WHERE e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
        GROUP BY e_session_id, e_name
      )
      ANY INNER JOIN (
        SELECT e_session_id AS skey, min(e_ts) AS start_ts
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p4:String}, 'UTC')
          AND ts < toDateTime({p5:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  ) AS r0
  ANY LEFT JOIN (
    SELECT skey, 1 AS cv_converted
    FROM (
      SELECT property, skey, vkey, start_ts, name, events, revenue
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_name AS name, count() AS events, sum(e_revenue) AS revenue
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p4:String}, 'UTC')
          AND ts < toDateTime({p5:String}, 'UTC')
        )
        WHERE e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
        GROUP BY e_session_id, e_name
      )
      ANY INNER JOIN (
        SELECT e_session_id AS skey, min(e_ts) AS start_ts
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p4:String}, 'UTC')
          AND ts < toDateTime({p5:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
    AND name = {p6:String}
    GROUP BY skey
  ) AS r1 USING (skey)
)
GROUP BY dim
ORDER BY dim ASC
LIMIT 0, 100
