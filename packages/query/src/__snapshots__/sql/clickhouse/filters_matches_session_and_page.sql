-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "^Qx7Mark(Chrome|Edge)$"
-- p5 = "2024-03-26 23:00:00"
-- p6 = "2024-04-04 22:00:00"
-- p7 = "^/Qx7Markdocs/.*"
SELECT uniqExact(vkey) AS visitors, sum(pf_pageviews) AS pageviews, (toFloat64(sum(pf_engaged)) / nullIf(sum(pf_pageviews), 0)) / 1000 AS time_on_page
FROM (
  SELECT skey, vkey, start_ts, pf_pageviews, pf_engaged
  FROM (
    SELECT skey, vkey, start_ts
    FROM (
      SELECT property, skey, vkey, start_ts, pageviews, browser
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p5:String}, 'UTC'))
      AND day <= toDate(toDateTime({p6:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, pageviews, browser
      FROM (
        SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews, argMinMerge(s_browser) AS browser
        FROM visits
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p5:String}, 'UTC'))
        AND day <= toDate(toDateTime({p6:String}, 'UTC'))
        AND day >= toDate({lookout_first_live:String})
        GROUP BY property, skey
        HAVING skey NOT IN (
          SELECT cityHash64(session_id)
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p6:String}, 'UTC'))
          AND day = toDate({lookout_first_live:String}) - 1
        )
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
    AND match(browser, {p4:String})
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, path
        FROM visit_pages_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p5:String}, 'UTC'))
        AND day <= toDate(toDateTime({p6:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, path
        FROM (
          SELECT property, skey, vkey, start_ts, path, pageviews
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, path AS path, toUInt64(sumMerge(s_pageviews)) AS pageviews
            FROM visit_pages
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey, path
            HAVING pageviews > 0
          )
          ANY INNER JOIN (
            SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey
            HAVING skey NOT IN (
              SELECT cityHash64(session_id)
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p5:String}, 'UTC'))
              AND day <= toDate(toDateTime({p6:String}, 'UTC'))
              AND day = toDate({lookout_first_live:String}) - 1
            )
          ) USING (property, skey)
        )
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
      AND match(path, {p7:String})
    )
  ) AS r0
  ANY INNER JOIN (
    SELECT skey, sum(pageviews) AS pf_pageviews, sum(engaged_ms) AS pf_engaged
    FROM (
      SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
      FROM visit_pages_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p5:String}, 'UTC'))
      AND day <= toDate(toDateTime({p6:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
      FROM (
        SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, path AS path, toUInt64(sumMerge(s_pageviews)) AS pageviews, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
          FROM visit_pages
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p6:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey, path
          HAVING pageviews > 0
        )
        ANY INNER JOIN (
          SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p6:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey
          HAVING skey NOT IN (
            SELECT cityHash64(session_id)
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day = toDate({lookout_first_live:String}) - 1
          )
        ) USING (property, skey)
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
    AND match(path, {p7:String})
    GROUP BY skey
  ) AS r1 USING (skey)
)
LIMIT 0, 1
