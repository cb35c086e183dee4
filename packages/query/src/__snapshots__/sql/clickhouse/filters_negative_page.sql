-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-26 23:00:00"
-- p5 = "2024-04-04 22:00:00"
-- p6 = "Qx7Mark/pricing' OR '1'='1"
-- p7 = "Qx7Markadmin' OR '1'='1"
SELECT uniqExact(vkey) AS visitors, sum(s_pageviews) AS pageviews, 100 * (toFloat64(countIf(bounce)) / nullIf(count(*), 0)) AS bounce_rate
FROM (
  SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged
  FROM (
    SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms
    FROM visits_done
    WHERE property = {p1:String}
    AND day >= toDate(toDateTime({p4:String}, 'UTC'))
    AND day <= toDate(toDateTime({p5:String}, 'UTC'))
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms
    FROM (
      SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
      FROM visits
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p4:String}, 'UTC'))
      AND day <= toDate(toDateTime({p5:String}, 'UTC'))
      AND day >= toDate({lookout_first_live:String})
      GROUP BY property, skey
      HAVING skey NOT IN (
        SELECT cityHash64(session_id)
        FROM visits
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p4:String}, 'UTC'))
        AND day <= toDate(toDateTime({p5:String}, 'UTC'))
        AND day = toDate({lookout_first_live:String}) - 1
      )
    )
  )
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  AND skey NOT IN (
    SELECT skey
    FROM (
      SELECT property, skey, vkey, start_ts, path
      FROM visit_pages_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p4:String}, 'UTC'))
      AND day <= toDate(toDateTime({p5:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, path
      FROM (
        SELECT property, skey, vkey, start_ts, path, pageviews
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, path AS path, toUInt64(sumMerge(s_pageviews)) AS pageviews
          FROM visit_pages
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p4:String}, 'UTC'))
          AND day <= toDate(toDateTime({p5:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey, path
          HAVING pageviews > 0
        )
        ANY INNER JOIN (
          SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p4:String}, 'UTC'))
          AND day <= toDate(toDateTime({p5:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey
          HAVING skey NOT IN (
            SELECT cityHash64(session_id)
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p4:String}, 'UTC'))
            AND day <= toDate(toDateTime({p5:String}, 'UTC'))
            AND day = toDate({lookout_first_live:String}) - 1
          )
        ) USING (property, skey)
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
    AND path = {p6:String}
  )
  AND skey NOT IN (
    SELECT skey
    FROM (
      SELECT property, skey, vkey, start_ts, path
      FROM visit_pages_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p4:String}, 'UTC'))
      AND day <= toDate(toDateTime({p5:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, path
      FROM (
        SELECT property, skey, vkey, start_ts, path, pageviews
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, path AS path, toUInt64(sumMerge(s_pageviews)) AS pageviews
          FROM visit_pages
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p4:String}, 'UTC'))
          AND day <= toDate(toDateTime({p5:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey, path
          HAVING pageviews > 0
        )
        ANY INNER JOIN (
          SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p4:String}, 'UTC'))
          AND day <= toDate(toDateTime({p5:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey
          HAVING skey NOT IN (
            SELECT cityHash64(session_id)
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p4:String}, 'UTC'))
            AND day <= toDate(toDateTime({p5:String}, 'UTC'))
            AND day = toDate({lookout_first_live:String}) - 1
          )
        ) USING (property, skey)
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
    AND (positionCaseInsensitiveUTF8(path, {p7:String}) > 0)
  )
) AS r0
LIMIT 0, 1
