//! The API's extractors: a JSON object body, a query string, a path's
//! parameters, each refused with an [`ApiError`] (JSON), never axum's text.

use super::error::ApiError;
use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use std::collections::HashSet;

/// A JSON body that must be an object, read as `T`; refused with an
/// [`ApiError`]: 422 for an array or a scalar (serde reads a struct from
/// an array too, by position, past `deny_unknown_fields`), else axum's
/// status (400 malformed, 415 not JSON, 422 wrong fields).
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, ApiError> {
        let (parts, body) = req.into_parts();
        // Read whole already (limits::read_body): this only takes it.
        let bytes = Bytes::from_request(Request::from_parts(parts.clone(), body), state)
            .await
            .map_err(|e| ApiError::bad(e.body_text()))?;
        let read = axum::Json::<T>::from_request(
            Request::from_parts(parts, axum::body::Body::from(bytes.clone())),
            state,
        )
        .await;
        let not_json = matches!(read, Err(JsonRejection::MissingJsonContentType(_)));
        if !not_json
            && let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes)
            && !value.is_object()
        {
            return Err(ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message: format!(
                    "expected an object as the request body ({{\"name\": value, ...}}), not {}",
                    kind(&value)
                ),
            });
        }
        Ok(Body(read?.0))
    }
}

/// What a JSON value is, for a message.
fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// A query string read as `T`; a key given twice is refused (400 naming
/// it) rather than read last-wins, other rejections are an [`ApiError`].
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Query<T>, ApiError> {
        let axum::extract::Query(pairs) =
            axum::extract::Query::<Vec<(String, String)>>::from_request_parts(parts, state).await?;
        let mut seen = HashSet::new();
        for (k, _) in &pairs {
            if !seen.insert(k.as_str()) {
                return Err(ApiError::bad(format!(
                    "the query key `{}` is given more than once; give it once",
                    kamil_rules::excerpt(k)
                )));
            }
        }
        let axum::extract::Query(t) =
            axum::extract::Query::<T>::from_request_parts(parts, state).await?;
        Ok(Query(t))
    }
}

/// A path's parameters read as `T` (an id with bytes that are not UTF-8
/// is a 400 in JSON).
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);
