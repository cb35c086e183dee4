-- p1 = "Qx7MarkProp"
-- p2 = "2024-04-01 22:00:00"
-- p3 = "2024-04-02 22:00:00"
-- p4 = "2024-03-31 22:00:00"
-- p5 = "2024-04-03 22:00:00"
SELECT formatDateTime(toStartOfHour(addMinutes(start_ts, 120)), '%Y-%m-%d %H:%M:%S', 'UTC') AS bucket, countIf((prev_any < toDateTime({p2:String}, 'UTC') OR toStartOfHour(addMinutes(prev_any, 120)) < toStartOfHour(addMinutes(start_ts, 120)))) AS visitors, count(*) AS visits
FROM (
  SELECT skey, vkey, start_ts, prev_any
  FROM (
    SELECT property, skey, vkey, start_ts, prev_any
    FROM visits_done
    WHERE property = {p1:String}
    AND day >= toDate(toDateTime({p4:String}, 'UTC'))
    AND day <= toDate(toDateTime({p5:String}, 'UTC'))
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT property, skey, vkey, start_ts, prev_any
    FROM (
      SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, toDateTime(p_start, 'UTC') AS prev_any
      FROM (
        SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new))) AS a_rows
        FROM (
          SELECT property, skey, vkey, start_ts, toUInt8(1) AS is_new
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
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
          UNION ALL SELECT property, skey, vkey, start_ts, toUInt8(0) AS is_new
          FROM visits_done
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p4:String}, 'UTC'))
          AND day < toDate({lookout_first_live:String})
          AND batch IN ({lookout_settled:UInt64s})
          AND vkey IN (
            SELECT vkey
            FROM (
              SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
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
        )
        GROUP BY property, vkey
      ) ARRAY
      JOIN a_rows AS r, arrayPushFront(arrayPopBack(arrayMap(x -> x.1, a_rows)), toDateTime(0, 'UTC')) AS p_start
      WHERE r.3 = 1
    )
  )
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
) AS r0
GROUP BY toStartOfHour(addMinutes(start_ts, 120))
ORDER BY bucket
LIMIT 0, 24
